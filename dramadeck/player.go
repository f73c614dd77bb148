package dramadeck

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// Play is one card played: which card and, where the card asks, on whom
// and how. It is the one declaration type for every card, so that a bot
// or a menu fills one value and the engine validates it against the card
// played. Zero fields mean "the obvious choice": Play{Card: id} plays
// any card that needs nothing more on the player's own hero. A field the
// card does not read must be left zero (the steps refuse it):
//
//   - Target: the cards that wait on a hero (Aimed: the bonuses,
//     re-rolls, Haste, Opponent Fails, Drama, Hero, Supporter, Coup de
//     Grace and the deferred cards);
//   - Flip: Seize Initiative;
//   - Cards, N: Leadership and Campaign;
//   - ToPlayer, ToPool, Why: Leadership.
type Play struct {
	Card int `json:"card"` // card id (index in the Deck)
	// Target is the hero the card affects: Self (the zero value), the
	// player's own, or OnHero(i). Supporter needs another hero.
	Target Aim `json:"target,omitempty"`
	// Flip: Seize Initiative flips another card now instead of keeping
	// the current one for an extra round.
	Flip bool `json:"flip,omitempty"`
	// Cards, N: Leadership's one or two cards (from the player's hand or
	// pool); Campaign's subplot is Cards[0] with N = 1. Cards past N
	// stay 0.
	Cards [2]int `json:"cards"`
	N     int    `json:"n,omitempty"`
	// ToPlayer, ToPool: where Leadership puts the cards.
	ToPlayer int  `json:"to_player,omitempty"`
	ToPool   bool `json:"to_pool,omitempty"`
	// Why: the explanation Leadership requires.
	Why string `json:"why,omitempty"`
}

// draw takes the top card of the draw pile, first shuffling the discards
// back in if it is empty (The Player Side: reshuffle when the pile runs
// out). It reports false when no card is left anywhere.
func (g *game) draw(r *dice.Roller) (int, bool) {
	s := g.State
	if len(s.Draw) == 0 {
		if len(s.Discard) == 0 {
			return -1, false
		}
		s.Draw = append(s.Draw, s.Discard...)
		s.Discard = s.Discard[:0]
		g.Shuffle(r)
		if g.Sink != nil {
			g.emit(Event{Kind: EvReshuffle, Who: -1, Target: -1, Card: -1, Value: len(s.Draw)})
		}
	}
	c := s.Draw[len(s.Draw)-1]
	s.Draw = s.Draw[:len(s.Draw)-1]
	return c, true
}

// drawTo draws one card into player p's hand.
func (g *game) drawTo(r *dice.Roller, p int, kind EventKind) bool {
	c, ok := g.draw(r)
	if !ok {
		return false
	}
	pl := &g.State.Players[p]
	pl.Hand = append(pl.Hand, c)
	g.State.CardsDrawn++
	if g.Sink != nil {
		g.emit(Event{Kind: kind, Who: p, Target: -1, Card: c})
	}
	return true
}

func (g *game) refill(r *dice.Roller, p int) {
	for len(g.State.Players[p].Hand) < g.State.Rules.HandSize {
		if !g.drawTo(r, p, EvDraw) {
			return
		}
	}
}

// EnterPlay is Engine.EnterPlay on g.State.
func (g *game) EnterPlay(r *dice.Roller, p int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	for range g.State.Rules.HandSize {
		if !g.drawTo(r, p, EvDeal) {
			break
		}
	}
	return nil
}

// AddPlayer is Engine.AddPlayer on g.State.
func (g *game) AddPlayer(r *dice.Roller, c Character) (int, error) {
	s := g.State
	if len(s.Heroes) >= MaxHeroes {
		return -1, fmt.Errorf("%d heroes already, at most %d", len(s.Heroes), MaxHeroes)
	}
	p := len(s.Heroes)
	if err := c.check(fmt.Sprintf("heroes[%d]", p)); err != nil {
		return -1, err
	}
	for i, ci := range s.Queue {
		if ci >= p {
			s.Queue[i] = ci + 1 // villains are numbered after the heroes
		}
	}
	s.Heroes = append(s.Heroes, c.Fresh())
	s.Players = append(s.Players, Player{})
	return p, g.EnterPlay(r, p)
}

// Draw is Engine.Draw on g.State.
func (g *game) Draw(r *dice.Roller, p int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if !g.drawTo(r, p, EvDraw) {
		return errors.New("no cards left to draw (draw pile and discards are empty)")
	}
	return nil
}

// MoveToPool is Engine.MoveToPool on g.State.
func (g *game) MoveToPool(p, id int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	i, err := g.checkMove(p, id)
	if err != nil {
		return err
	}
	g.moveToPool(p, i, id)
	return nil
}

// moveToPool moves card id, hand[i] of player p, to his pool: his move
// of the round.
func (g *game) moveToPool(p, i, id int) {
	pl := &g.State.Players[p]
	pl.Hand = remove(pl.Hand, i)
	pl.Pool = append(pl.Pool, id)
	pl.Moved, pl.MayMove = true, false
	pl.Pooled++
	if g.Sink != nil {
		g.emit(Event{Kind: EvMove, Who: p, Target: -1, Card: id})
	}
}

// checkMove reports why player p may not move card id from hand to pool
// now, or nil and where in his hand the card is.
func (g *game) checkMove(p, id int) (int, error) {
	pl := &g.State.Players[p]
	switch {
	case !g.State.Combat:
		return -1, errors.New("cards move to the pool only in combat")
	case pl.Moved:
		return -1, fmt.Errorf("player %d already moved a card to the pool this round (one per round)", p)
	case !pl.MayMove:
		return -1, fmt.Errorf("player %d's hero has not taken a scene-moving action this round", p)
	}
	return g.checkMoveCard(p, id)
}

// checkMoveCard is checkMove for a player offered a move (moveOffered):
// does he hold card id in hand, and may it go into the pool now.
func (g *game) checkMoveCard(p, id int) (int, error) {
	i := indexOf(g.State.Players[p].Hand, id)
	switch {
	case i < 0:
		return i, fmt.Errorf("player %d does not hold card %d in hand", p, id)
	case !g.State.poolable(p, id):
		if g.State.Deck.Cards[id].Name == Escape {
			return i, errors.New("card Escape must be the first card played into the pool, as the encounter begins (before its first round)")
		}
		return i, errors.New("as the encounter begins only Escape may go into the pool")
	}
	return i, nil
}

// poolable reports whether card id may go into player p's pool at this
// point of the encounter: Escape only as its first card, as it begins
// (round 0); any other card only once it is under way.
func (s *State) poolable(p, id int) bool {
	if s.Deck.Cards[id].Name == Escape {
		return s.Round == 0 && s.Players[p].Pooled == 0
	}
	return s.Round > 0
}

// Swap is a one-for-one trade of cards with player With (-1: none): Give
// from the proposer, Take from With.
type Swap struct {
	With int `json:"with"`
	Give int `json:"give"`
	Take int `json:"take"`
}

// DeclineMove is Engine.DeclineMove on g.State.
func (g *game) DeclineMove(p int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if !g.State.Players[p].MayMove {
		return fmt.Errorf("player %d has no move to the pool to decline", p)
	}
	g.State.Players[p].MayMove = false
	return nil
}

// Trade is Engine.Trade on g.State.
func (g *game) Trade(p, q int, give, take []int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if err := g.checkPlayer(q); err != nil {
		return err
	}
	if p == q {
		return errors.New("a player cannot trade with himself")
	}
	if len(give) != len(take) || len(give) == 0 {
		return fmt.Errorf("trades must be equal: %d cards for %d (need the same number, at least one)", len(give), len(take))
	}
	a, b := &g.State.Players[p], &g.State.Players[q]
	pa, pb := &a.Hand, &b.Hand
	where := "hand"
	if g.State.Combat {
		pa, pb, where = &a.Pool, &b.Pool, "pool"
	}
	check := func(who int, pile []int, ids []int) error {
		for k, id := range ids {
			if indexOf(pile, id) < 0 {
				return fmt.Errorf("player %d has no card %d in %s", who, id, where)
			}
			if indexOf(ids[:k], id) >= 0 {
				return fmt.Errorf("card %d offered twice", id)
			}
		}
		return nil
	}
	if err := check(p, *pa, give); err != nil {
		return err
	}
	if err := check(q, *pb, take); err != nil {
		return err
	}
	for k := range give {
		*pa = remove(*pa, indexOf(*pa, give[k]))
		*pb = remove(*pb, indexOf(*pb, take[k]))
		*pa = append(*pa, take[k])
		*pb = append(*pb, give[k])
	}
	if g.Sink != nil {
		g.emit(Event{Kind: EvTrade, Who: p, Target: q, Card: -1, Value: len(give)})
	}
	return nil
}

// PlayFromHand is Engine.PlayFromHand on g.State.
func (g *game) PlayFromHand(r *dice.Roller, p int, pl Play) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if g.State.Combat {
		return errors.New("in combat, card abilities are played only from the pool")
	}
	if err := g.checkPlay(p, &pl, false, nil); err != nil {
		return err
	}
	g.apply(r, p, &pl, false)
	return nil
}

// Declare is Engine.Declare on g.State.
func (g *game) Declare(r *dice.Roller, p int, plays []Play) error {
	if err := g.checkDeclare(p, plays, nil, false); err != nil {
		return err
	}
	g.declare(r, p, plays)
	return nil
}

func (g *game) declare(r *dice.Roller, p int, plays []Play) {
	g.State.Players[p].Declared = true
	for k := range plays {
		g.apply(r, p, &plays[k], true)
	}
	g.closeDeclarations()
}

func (g *game) checkDeclare(p int, plays []Play, extra []int, critical bool) error {
	if err := g.checkStep(); err != nil {
		return err // the rules changed since the last step
	}
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	s := g.State
	switch {
	case !s.Combat:
		return errors.New("declaring pool cards happens in combat; out of combat play from hand")
	case s.Phase != Declaring:
		return fmt.Errorf("round %d is %v: cards are declared after the flip, before anyone acts", s.Round, s.Phase)
	case !s.Heroes[p].Active():
		return fmt.Errorf("player %d's hero is out of the fight", p)
	case s.Players[p].Declared:
		return fmt.Errorf("player %d already declared this round (all of a round's cards are declared together)", p)
	}
	return g.checkPlays(p, plays, extra, critical)
}

// checkPlays checks the plays of player p's declaration, whose moment
// has come (checkDeclare): no card while the heroes are Confused, each
// play legal, every card used once; extra and critical as checkDeclare.
func (g *game) checkPlays(p int, plays []Play, extra []int, critical bool) error {
	if g.State.Confused && len(plays) > 0 {
		return errors.New("the heroes are Confused: no cards may be activated from pools this round")
	}
	for k := range plays {
		pl := &plays[k]
		if err := g.checkPlay(p, pl, true, extra); err != nil {
			return err
		}
		if critical && g.target(p, pl) != g.target(p, &plays[0]) {
			return errors.New("a Critical Moment's cards must all affect a single character")
		}
		if err := checkUsedOnce(plays[:k], pl); err != nil {
			return err
		}
	}
	return nil
}

// PlayHaste is Engine.PlayHaste on g.State.
func (g *game) PlayHaste(r *dice.Roller, p, id int) error {
	if err := g.checkHasteNow(p); err != nil {
		return err
	}
	if s := g.State; id < 0 || id >= len(s.Deck.Cards) || s.Deck.Cards[id].Name != Haste {
		return fmt.Errorf("card %d is not a Haste card", id)
	}
	pl := Play{Card: id}
	if err := g.checkPlay(p, &pl, true, nil); err != nil {
		return err
	}
	g.apply(r, p, &pl, true)
	return nil
}

// checkHasteNow reports why player p may not play Haste from his pool
// now, while the characters act, whichever card he plays, or nil.
func (g *game) checkHasteNow(p int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	s := g.State
	switch {
	case !s.Combat || s.Phase != Acting || s.Outcome != Ongoing:
		return errors.New("card Haste is played outside the declarations only while the characters act")
	case s.Monologue:
		return errors.New("a Monologue is under way: nobody else may act this round")
	case s.Confused:
		return errors.New("the heroes are Confused: no cards may be activated from pools this round")
	case !s.Heroes[p].Active():
		return fmt.Errorf("player %d's hero is out of the fight", p)
	}
	return nil
}

// holds reports whether pile holds a card named n.
func (s *State) holds(pile []int, n Name) bool {
	for _, id := range pile {
		if s.Deck.Cards[id].Name == n {
			return true
		}
	}
	return false
}

// cardsUsed lists the cards play pl takes out of the player's hand or
// pool, or names: the card itself, Leadership's cards passed, Campaign's
// subplot.
func cardsUsed(pl *Play) []int {
	switch {
	case pl.N == 1:
		return []int{pl.Card, pl.Cards[0]}
	case pl.N == 2:
		return []int{pl.Card, pl.Cards[0], pl.Cards[1]}
	}
	return []int{pl.Card}
}

// checkUsedOnce refuses play pl if it uses a card an earlier play of the
// same declaration plays, passes or names.
func checkUsedOnce(earlier []Play, pl *Play) error {
	for k := range earlier {
		for _, a := range cardsUsed(pl) {
			if slices.Contains(cardsUsed(&earlier[k]), a) {
				return fmt.Errorf("card %d is used by two plays of one declaration (played, passed by Leadership or named by Campaign)", a)
			}
		}
	}
	return nil
}

// checkMoment checks the hand cards player p would pour into the pool
// for a Critical Moment (none: no Critical Moment).
func (g *game) checkMoment(p int, move []int) error {
	if len(move) == 0 {
		return nil
	}
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	pl := &g.State.Players[p]
	if pl.CriticalAct == g.State.Act {
		return fmt.Errorf("player %d already declared a Critical Moment in Act %d (once per Act)", p, g.State.Act)
	}
	for k, id := range move {
		if indexOf(pl.Hand, id) < 0 {
			return fmt.Errorf("player %d does not hold card %d in hand", p, id)
		}
		if indexOf(move[:k], id) >= 0 {
			return fmt.Errorf("card %d moved twice", id)
		}
		if g.State.Deck.Cards[id].Name == Escape {
			return errors.New("card Escape must be the first card played into the pool, as the encounter begins (before its first round)")
		}
	}
	return nil
}

// CriticalMoment is Engine.CriticalMoment on g.State.
func (g *game) CriticalMoment(r *dice.Roller, p int, move []int, plays []Play) error {
	if len(move) == 0 {
		return errors.New("a Critical Moment moves at least one card from hand to pool")
	}
	if err := g.checkMoment(p, move); err != nil {
		return err
	}
	if err := g.checkDeclare(p, plays, move, true); err != nil {
		return err
	}
	pl := &g.State.Players[p]
	for _, id := range move {
		pl.Hand = remove(pl.Hand, indexOf(pl.Hand, id))
		pl.Pool = append(pl.Pool, id)
		pl.Pooled++
		if g.Sink != nil {
			g.emit(Event{Kind: EvMove, Who: p, Target: -1, Card: id})
		}
	}
	pl.CriticalAct = g.State.Act
	g.declare(r, p, plays)
	return nil
}

// Aim is the hero a card affects: Self, the zero value, is the player's
// own hero; OnHero(i) is hero i (written i+1).
type Aim int

// Self aims a card at the player's own hero.
const Self Aim = 0

// OnHero aims a card at hero i.
func OnHero(i int) Aim { return Aim(i + 1) }

// target is the hero index play pl of player p affects.
func (g *game) target(p int, pl *Play) int {
	if pl.Target == Self {
		return p
	}
	return int(pl.Target) - 1
}

// checkPlay validates one play by player p from the pool (fromPool) or
// hand; extra lists hand cards being moved to the pool at the same time.
func (g *game) checkPlay(p int, pl *Play, fromPool bool, extra []int) error {
	if err := g.checkStep(); err != nil {
		return err // the rules changed since the last step
	}
	s := g.State
	if pl.Card < 0 || pl.Card >= len(s.Deck.Cards) {
		return fmt.Errorf("card %d does not exist (deck has 0..%d)", pl.Card, len(s.Deck.Cards)-1)
	}
	if err := g.checkHeld(p, pl.Card, fromPool, extra); err != nil {
		return err
	}
	n := s.Deck.Cards[pl.Card].Name
	if err := checkFields(n, pl); err != nil {
		return err
	}
	if t := g.target(p, pl); t < 0 || t >= len(s.Heroes) {
		return fmt.Errorf("%v: target %d is not a hero (Self, or OnHero(0..%d))", n, pl.Target, len(s.Heroes)-1)
	}
	return g.checkCard(p, pl, n, fromPool)
}

// checkFields refuses a field of pl that card n does not read (see
// Play): one declaration type serves every card, so a field set where
// the card would ignore it is a mistake to report, not to pass over.
func checkFields(n Name, pl *Play) error {
	var field string
	switch {
	case pl.Target != Self && !n.Aimed():
		field = "target"
	case pl.Flip && n != SeizeInitiative:
		field = "flip"
	case n != Leadership && n != Campaign && (pl.N != 0 || pl.Cards != [2]int{}):
		field = "cards and n"
	case pl.N >= 0 && pl.N < 2 && pl.Cards[1] != 0:
		field = "cards[1] (past n)"
	case pl.N == 0 && pl.Cards[0] != 0:
		field = "cards[0] (past n)"
	case n != Leadership && (pl.ToPlayer != 0 || pl.ToPool || pl.Why != ""):
		field = "to_player, to_pool and why"
	default:
		return nil
	}
	return fmt.Errorf("card %v does not read the play's %s: leave it zero", n, field)
}

// checkHeld reports why player p does not hold card id where he plays it
// from: his pool (or extra, the hand cards a Critical Moment is moving
// there) when fromPool, else his hand.
func (g *game) checkHeld(p, id int, fromPool bool, extra []int) error {
	me := &g.State.Players[p]
	switch {
	case !fromPool && indexOf(me.Hand, id) < 0:
		return fmt.Errorf("player %d does not hold card %d in hand", p, id)
	case !fromPool || indexOf(me.Pool, id) >= 0 || indexOf(extra, id) >= 0:
		return nil
	case indexOf(me.Hand, id) >= 0:
		return fmt.Errorf("card %d is in player %d's hand; in combat abilities are played only from the pool", id, p)
	}
	return fmt.Errorf("player %d does not hold card %d in the pool", p, id)
}

// What a card asks of the moment, which a question lists its options by
// (asked.go): made once, not at every check.
var (
	errSeizeNoStack        = errors.New("card Seize Initiative: no card on the action stack")
	errGloryNoCrit         = errors.New("card Glory may be played only after the character achieved a critical success in something plot-relevant")
	errSupporterSelf       = errors.New("card Supporter assists another character: target a different hero")
	errMasterPlanNoDiscard = errors.New("card Master Plan: the discard pile is empty")
	errMartyrFromPool      = errors.New("card Martyr acts from the pool in combat: a subplot must first come into play")
)

// combatOnly refuses card n out of combat.
type combatOnly Name

func (n combatOnly) Error() string { return fmt.Sprintf("%v works only in combat", Name(n)) }

// subplotInPlay refuses playing subplot n from the pool.
type subplotInPlay Name

func (n subplotInPlay) Error() string {
	return fmt.Sprintf("%v is a subplot already in play: it stays in the pool and pays a Possibility each Act", Name(n))
}

// checkCard checks what card n asks of the moment and of play pl by
// player p (sections 1.1 to 1.3 of the text).
func (g *game) checkCard(p int, pl *Play, n Name, fromPool bool) error {
	s := g.State
	switch n {
	case Escape, SeizeInitiative, Monologue:
		if !s.Combat {
			return combatOnly(n)
		}
		if n == SeizeInitiative && len(s.Stack) == 0 {
			return errSeizeNoStack
		}
	case Glory:
		if !s.Heroes[p].Status.Crit {
			return errGloryNoCrit
		}
	case Supporter:
		if g.target(p, pl) == p {
			return errSupporterSelf
		}
	case MasterPlan:
		if len(s.Discard) == 0 {
			return errMasterPlanNoDiscard
		}
	case Leadership:
		return g.checkLeadership(p, pl)
	case Campaign:
		return g.checkCampaign(p, pl)
	case Martyr:
		if !fromPool || !s.Combat {
			return errMartyrFromPool
		}
	case MistakenIdentity, Nemesis, PersonalStake, Romance, Suspicion, TrueIdentity:
		if fromPool {
			return subplotInPlay(n)
		}
	}
	return nil
}

// checkLeadership checks Leadership's pass: one or two of player p's
// other cards (hand or pool) to another player, with the explanation the
// card requires.
func (g *game) checkLeadership(p int, pl *Play) error {
	if err := g.checkPlayer(pl.ToPlayer); err != nil {
		return fmt.Errorf("card Leadership: %w", err)
	}
	switch {
	case pl.ToPlayer == p:
		return errors.New("card Leadership passes cards to another player")
	case pl.N < 1 || pl.N > g.State.Rules.MaxLeadership || pl.N > len(pl.Cards):
		return fmt.Errorf("card Leadership moves 1..%d cards, not %d", min(g.State.Rules.MaxLeadership, len(pl.Cards)), pl.N)
	case pl.Why == "":
		return errors.New("card Leadership requires an explanation (Why)")
	}
	me := &g.State.Players[p]
	for k := 0; k < pl.N; k++ {
		id := pl.Cards[k]
		if id == pl.Card || (k == 1 && id == pl.Cards[0]) {
			return fmt.Errorf("card Leadership: card %d listed twice or is the Leadership card itself", id)
		}
		if indexOf(me.Hand, id) < 0 && indexOf(me.Pool, id) < 0 {
			return fmt.Errorf("card Leadership: player %d holds no card %d in hand or pool", p, id)
		}
		// Immediate Effects: Escape goes into a pool only as the first
		// card of an encounter, as it begins; Leadership may not put it
		// there from a hand later.
		if pl.ToPool && g.State.Deck.Cards[id].Name == Escape && indexOf(me.Hand, id) >= 0 {
			return errors.New("card Leadership: Escape goes into a pool only as the encounter begins, not passed there from a hand")
		}
	}
	return nil
}

// checkCampaign checks Campaign's subplot: one already in play in player
// p's pool (Cards[0], N = 1), not yet permanent.
func (g *game) checkCampaign(p int, pl *Play) error {
	me := &g.State.Players[p]
	id := pl.Cards[0]
	if pl.N != 1 || indexOf(me.Pool, id) < 0 || g.State.Deck.Cards[id].Name.Kind() != Subplot {
		return errors.New("card Campaign needs one subplot already in play in your pool (Cards[0], N=1)")
	}
	if indexOf(me.Permanent, id) >= 0 {
		return fmt.Errorf("subplot card %d is already permanent", id)
	}
	return nil
}

// plainSubplot reports the subplots that only come into play (not
// Campaign or Martyr, which act when played).
func plainSubplot(n Name) bool {
	switch n {
	case MistakenIdentity, Nemesis, PersonalStake, Romance, Suspicion, TrueIdentity:
		return true
	}
	return false
}

// apply carries out a checked play: the card leaves the pile it is played
// from; a subplot comes into play in the pool, any other card is
// discarded and takes effect on its target hero or on the game.
func (g *game) apply(r *dice.Roller, p int, pl *Play, fromPool bool) {
	s := g.State
	me := &s.Players[p]
	pile := &me.Hand
	if fromPool {
		pile = &me.Pool
	}
	n := s.Deck.Cards[pl.Card].Name
	t := g.target(p, pl)
	*pile = remove(*pile, indexOf(*pile, pl.Card))
	if plainSubplot(n) {
		// A subplot comes into play: it stays in the pool.
		me.Pool = append(me.Pool, pl.Card)
		if g.Sink != nil {
			g.emit(Event{Kind: EvMove, Who: p, Target: -1, Card: pl.Card})
		}
		return
	}
	s.Discard = append(s.Discard, pl.Card)
	s.CardsPlayed++
	if g.Sink != nil {
		g.emit(Event{Kind: EvPlay, Who: p, Target: t, Card: pl.Card})
	}
	if !g.State.Rules.boost(n, &s.Heroes[t].Status) {
		g.applyToGame(r, p, pl, n)
	}
}

// boost records on the target hero's Status a card that waits there for
// its moment (a bonus, a re-roll, an extra action, a deferred effect),
// and reports whether n is such a card.
func (r *Rules) boost(n Name, st *Status) bool {
	b := r.Bonus
	switch n {
	case Action:
		st.RoundBonus += b
	case Adrenalin:
		st.Next[Physical] += b
	case Willpower:
		st.Next[Intellectual] += b
	case Presence:
		st.Next[Interpersonal] += b
	case Supporter:
		st.Support += b
	case CoupDeGrace:
		st.Coup++
	case Drama, Hero:
		st.CardPoss++
	case Haste:
		st.Extra++
	case OpponentFails:
		st.Fails++
	case SecondChance:
		st.Luck++
	case Alertness:
		st.Alert++
	case Connection:
		st.Connections++
	default:
		return false
	}
	return true
}

// applyToGame carries out a card played by player p that acts on the
// game rather than waiting on a hero: the encounter's end, the round, the
// piles, the players' cards, the adventure's awards.
func (g *game) applyToGame(r *dice.Roller, p int, pl *Play, n Name) {
	s := g.State
	me := &s.Players[p]
	switch n {
	case Escape:
		g.finish(Escaped)
	case Glory:
		s.Glory++
	case Idea:
		me.Ideas++
	case Leadership:
		g.lead(r, p, pl)
	case MasterPlan:
		g.masterPlan(p)
	case Monologue:
		s.Monologue = true
	case SeizeInitiative:
		if pl.Flip {
			g.reflip(r)
		} else {
			s.Retain = true
		}
	case Rally:
		for q := range s.Players {
			g.refill(r, q)
		}
	case Campaign:
		me.Permanent = append(me.Permanent, pl.Cards[0])
	case Martyr:
		s.Heroes[p].Status.Dead = true
		g.finish(HeroesWin)
	}
}

// masterPlan takes the top discard from beneath the Master Plan player p
// just discarded into his hand. A Rally, Leadership or Seize Initiative
// earlier in the same declaration may have shuffled the discards into the
// draw pile, leaving nothing beneath it: the card then takes nothing
// [ours; the text is silent].
func (g *game) masterPlan(p int) {
	s := g.State
	top := len(s.Discard) - 2
	if top < 0 {
		if g.Sink != nil {
			g.emit(Event{Kind: EvMasterPlan, Who: p, Target: -1, Card: -1})
		}
		return
	}
	id := s.Discard[top]
	s.Discard = remove(s.Discard, top)
	s.Players[p].Hand = append(s.Players[p].Hand, id)
	if g.Sink != nil {
		g.emit(Event{Kind: EvMasterPlan, Who: p, Target: -1, Card: id})
	}
}

// lead passes Leadership's cards from player p's hand or pool to the
// other player's hand or pool, then refills p's hand.
func (g *game) lead(r *dice.Roller, p int, pl *Play) {
	me, to := &g.State.Players[p], &g.State.Players[pl.ToPlayer]
	for k := 0; k < pl.N; k++ {
		id := pl.Cards[k]
		if i := indexOf(me.Hand, id); i >= 0 {
			me.Hand = remove(me.Hand, i)
		} else {
			me.Pool = remove(me.Pool, indexOf(me.Pool, id))
		}
		if pl.ToPool {
			to.Pool = append(to.Pool, id)
		} else {
			to.Hand = append(to.Hand, id)
		}
		if g.Sink != nil {
			g.emit(Event{Kind: EvPass, Who: p, Target: pl.ToPlayer, Card: id, Success: pl.ToPool})
		}
	}
	g.refill(r, p)
}

// Search is Engine.Search on g.State.
func (g *game) Search(r *dice.Roller, p, skill int) (Result, error) {
	if err := g.checkPlayer(p); err != nil {
		return Result{}, err
	}
	c := &g.State.Heroes[p]
	if c.Status.Alert > 0 {
		c.Status.Alert--
		return Result{Skill: skill, Success: true}, nil
	}
	return g.successRoll(r, skill), nil
}

// EndScene is Engine.EndScene on g.State.
func (g *game) EndScene(r *dice.Roller, pol Policy) error {
	if pol == nil {
		return errors.New("EndScene needs a policy for discards")
	}
	if err := g.checkStep(); err != nil {
		return err
	}
	s := g.State
	// The discards are the policy's: they are made on the hands as they
	// will be, and undone if an answer is illegal, before anything else.
	before := g.saveHands()
	discards, err := g.endSceneDiscards(pol, before.discards[:0])
	if err == nil && g.mustStop() {
		err = errHalted
	}
	if err != nil {
		g.restoreHands(before)
		return err
	}
	before.discards = discards[:0]
	for _, d := range discards {
		if g.Sink != nil {
			g.emit(Event{Kind: EvDiscard, Who: d[0], Target: -1, Card: d[1]})
		}
	}
	for p := range s.Players {
		g.refill(r, p)
		s.Players[p].Pooled = 0
		s.Players[p].MayMove, s.Players[p].Moved, s.Players[p].Declared = false, false, false
	}
	g.endCombat()
	for i := range s.Heroes {
		st := &s.Heroes[i].Status
		keep := Status{Out: st.Out, Fled: st.Fled, Dead: st.Dead, Alert: st.Alert, Connections: st.Connections}
		if s.Rules.EffectsOutlastScene {
			keep.Next, keep.Support, keep.Coup = st.Next, st.Support, st.Coup
			keep.CardPoss, keep.Luck, keep.Fails = st.CardPoss, st.Luck, st.Fails
		}
		*st = keep
	}
	s.Scene++
	return nil
}

// endSceneDiscards returns each player's pool cards other than subplots
// to his hand, then discards by pol: down to the hand size, or one card
// if he wishes at exactly that size. It returns the (player, card)
// discards made, appended to discards.
func (g *game) endSceneDiscards(pol Policy, discards [][2]int) ([][2]int, error) {
	s := g.State
	for p := range s.Players {
		me := &s.Players[p]
		keep := me.Pool[:0]
		for _, id := range me.Pool {
			if s.Deck.Cards[id].Name.Kind() == Subplot {
				keep = append(keep, id)
			} else {
				me.Hand = append(me.Hand, id)
			}
		}
		me.Pool = keep
		over := len(me.Hand) > s.Rules.HandSize
		for len(me.Hand) > s.Rules.HandSize || (!over && len(me.Hand) == s.Rules.HandSize) {
			i := pol.Discard(g.view(p), over)
			if g.halted() {
				return nil, errHalted
			}
			if i == -1 && !over {
				break
			}
			if i < 0 || i >= len(me.Hand) {
				return nil, fmt.Errorf("policy %s: discard index %d, player %d discards one of 0..%d", pol.Name(), i, p, len(me.Hand)-1)
			}
			discards = append(discards, [2]int{p, me.Hand[i]})
			s.Discard = append(s.Discard, me.Hand[i])
			me.Hand = remove(me.Hand, i)
			if !over {
				break
			}
		}
	}
	return discards, nil
}

// hands is a copy of every player's hand and pool and the discard pile's
// length as a scene's end found them, to undo a refused discard, and the
// discards made; the State lends its buffers, reused from scene to scene.
type hands struct {
	hand, pool [][]int
	discard    int
	discards   [][2]int // (player, card)
}

func (g *game) saveHands() *hands {
	s := g.State
	h := &s.lend.hands
	h.discard = len(s.Discard)
	n := len(s.Players)
	h.hand, h.pool = slices.Grow(h.hand[:0], n)[:n], slices.Grow(h.pool[:0], n)[:n]
	for p := range s.Players {
		h.hand[p] = append(h.hand[p][:0], s.Players[p].Hand...)
		h.pool[p] = append(h.pool[p][:0], s.Players[p].Pool...)
	}
	return h
}

func (g *game) restoreHands(h *hands) {
	s := g.State
	for p := range s.Players {
		s.Players[p].Hand = append(s.Players[p].Hand[:0], h.hand[p]...)
		s.Players[p].Pool = append(s.Players[p].Pool[:0], h.pool[p]...)
	}
	s.Discard = s.Discard[:h.discard]
}

// EndAct is Engine.EndAct on g.State.
func (g *game) EndAct() {
	s := g.State
	for p := range s.Players {
		paid := 0
		for _, id := range s.Players[p].Pool {
			if g.State.Deck.Cards[id].Name.Kind() == Subplot {
				paid += g.State.Rules.SubplotAward
			}
		}
		// Possibilities are counted up to maxCount, a bound no adventure
		// reaches unless a designer sets subplot_award near it.
		s.Heroes[p].Possibilities = min(s.Heroes[p].Possibilities+paid, maxCount)
		if paid > 0 && g.Sink != nil {
			g.emit(Event{Kind: EvSubplotAward, Who: p, Target: -1, Card: -1, Value: paid})
		}
	}
	s.Act++
}

// EndAdventure is Engine.EndAdventure on g.State.
func (g *game) EndAdventure() []int {
	out := make([]int, len(g.State.Players))
	g.endAdventure(out)
	return out
}

// endAdventure is EndAdventure writing each player's award into out, or
// nowhere if out is nil (a study's, which reads them from the players).
func (g *game) endAdventure(out []int) {
	s := g.State
	for p := range s.Players {
		me := &s.Players[p]
		a := s.Glory * g.State.Rules.GloryAward
		for _, pile := range [][]int{me.Hand, me.Pool} {
			for _, id := range pile {
				if g.State.Deck.Cards[id].Name == Drama {
					a += g.State.Rules.DramaWorth
				}
			}
		}
		keep := me.Pool[:0]
		for _, id := range me.Pool {
			if g.State.Deck.Cards[id].Name.Kind() == Subplot {
				s.Discard = append(s.Discard, id)
			} else {
				keep = append(keep, id)
			}
		}
		me.Pool = keep
		me.Award = min(me.Award+a, maxCount)
		if out != nil {
			out[p] = a
		}
		if g.Sink != nil {
			g.emit(Event{Kind: EvAward, Who: p, Target: -1, Card: -1, Value: a})
		}
	}
	s.Glory = 0
}
