package challenge

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// maxExactFaces bounds the face combinations enumerated for one roll.
const maxExactFaces = 1 << 22

// keyLen is the longest reading an exact roll keeps: the high die plus
// advantage, then the lower dice.
const keyLen = 8

// key is a roll as the rules read it: key[0] the high die plus advantage,
// then the other dice high to low, 0 for no die. Comparing keys
// lexicographically is exactly dice.CompareBonus.
type key [keyLen]int16

func (k key) cmp(o key) int {
	for i := range k {
		if k[i] != o[i] {
			if k[i] > o[i] {
				return 1
			}
			return -1
		}
	}
	return 0
}

// readDist is the exact distribution of a roll's reading: keys ascending.
type readDist struct {
	keys []key
	p    []float64
}

// newReadDist enumerates every face of ds (and of an advantage die adv, if
// not Gone) and collects the readings.
func newReadDist(ctx context.Context, ds []dice.Die, adv dice.Die) (readDist, error) {
	return readDistOf(ctx, ds, adv, b2i(adv != dice.Gone))
}

// readDistOf enumerates every face of ds and of n advantage dice adv, each
// added to the high die, and collects the readings.
func readDistOf(ctx context.Context, ds []dice.Die, adv dice.Die, n int) (readDist, error) {
	if len(ds) == 0 || len(ds) > keyLen {
		return readDist{}, fmt.Errorf("%w: %d dice in one roll: the exact model takes 1..%d", markov.ErrNoExact, len(ds), keyLen)
	}
	all := slices.Clone(ds)
	for range n {
		all = append(all, adv)
	}
	total := 1
	for _, d := range all {
		if !d.Valid() || d > 120 {
			return readDist{}, fmt.Errorf("%w: a %v is outside the exact model (d2..d120)", markov.ErrNoExact, d)
		}
		total *= int(d)
		if total > maxExactFaces {
			return readDist{}, fmt.Errorf("%w: %v has more than %d face combinations", markov.ErrNoExact, all, maxExactFaces)
		}
	}
	w := 1 / float64(total)
	acc := map[key]float64{}
	faces := make([]int, len(all))
	for i := range faces {
		faces[i] = 1
	}
	sorted := make([]int, len(ds))
	for n := 1; ; n++ {
		if n%(1<<16) == 0 && ctx.Err() != nil {
			return readDist{}, ctx.Err()
		}
		copy(sorted, faces[:len(ds)])
		slices.Sort(sorted)
		slices.Reverse(sorted)
		var k key
		for i, f := range sorted {
			k[i] = int16(f)
		}
		for _, f := range faces[len(ds):] {
			k[0] += int16(f)
		}
		acc[k] += w
		i := 0
		for i < len(all) {
			faces[i]++
			if faces[i] <= int(all[i]) {
				break
			}
			faces[i] = 1
			i++
		}
		if i == len(all) {
			break
		}
	}
	rd := readDist{keys: make([]key, 0, len(acc))}
	for k := range acc {
		rd.keys = append(rd.keys, k)
	}
	slices.SortFunc(rd.keys, key.cmp)
	rd.p = make([]float64, len(rd.keys))
	for i, k := range rd.keys {
		rd.p[i] = acc[k]
	}
	return rd, nil
}

// Odds are the exact chances of each outcome of one exchange.
type Odds struct {
	Block  float64 `json:"block"`  // the answer is higher: the answerer blocks and challenges
	Tie    float64 `json:"tie"`    // a true tie: blocked, new round, no advantage
	Double float64 `json:"double"` // half or less: the challenger wins outright
	Over   float64 `json:"over"`   // lower but over half: the answerer hangs in or gives
}

// answerOdds classifies the answerer's fresh roll against a standing key.
func answerOdds(r Rules, s key, ans readDist) Odds {
	var o Odds
	df := int16(r.DoubleFactor)
	for j, k := range ans.keys {
		switch c := k.cmp(s); {
		case c > 0:
			o.Block += ans.p[j]
		case c == 0:
			o.Tie += ans.p[j]
		case df*k[0] <= s[0]:
			o.Double += ans.p[j]
		default:
			o.Over += ans.p[j]
		}
	}
	return o
}

// ExchangeOdds returns the exact chances of each outcome of one exchange
// when the challenger's standing roll is a fresh roll of its dice and the
// answerer rolls its own; chAdv and anAdv add an advantage die
// (Rules.AdvantageDie) to either.
func ExchangeOdds(r Rules, challenger, answerer []dice.Die, chAdv, anAdv bool) (Odds, error) {
	if err := exactRules(r); err != nil {
		return Odds{}, err
	}
	cd, err := newReadDist(context.Background(), challenger, advDie(r, chAdv))
	if err != nil {
		return Odds{}, err
	}
	ad, err := newReadDist(context.Background(), answerer, advDie(r, anAdv))
	if err != nil {
		return Odds{}, err
	}
	var o Odds
	for i, k := range cd.keys {
		x := answerOdds(r, k, ad)
		o.Block += cd.p[i] * x.Block
		o.Tie += cd.p[i] * x.Tie
		o.Double += cd.p[i] * x.Double
		o.Over += cd.p[i] * x.Over
	}
	return o, nil
}

// AnswerOdds returns the exact chances of each outcome when the answerer
// (with or without an advantage die) meets a known standing roll: faces
// plus bonus on the high die.
func AnswerOdds(r Rules, faces []int, bonus int, answerer []dice.Die, anAdv bool) (Odds, error) {
	if err := exactRules(r); err != nil {
		return Odds{}, err
	}
	if len(faces) == 0 || len(faces) > keyLen {
		return Odds{}, fmt.Errorf("%w: a standing roll of %d dice: the exact model takes 1..%d", markov.ErrNoExact, len(faces), keyLen)
	}
	ad, err := newReadDist(context.Background(), answerer, advDie(r, anAdv))
	if err != nil {
		return Odds{}, err
	}
	sorted := slices.Clone(faces)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	var s key
	for i, f := range sorted {
		if f < 1 {
			return Odds{}, fmt.Errorf("challenge: face %d: faces are at least 1", f)
		}
		s[i] = int16(min(f, 1000))
	}
	s[0] += int16(min(max(bonus, 0), 1000))
	return answerOdds(r, s, ad), nil
}

// CastOdds returns the exact chances that side a's cast is higher than
// b's, lower, or truly tied (the cast is then recast).
func CastOdds(r Rules, a, b []dice.Die, aAdv, bAdv bool) (aHigher, bHigher, tie float64, err error) {
	if err := exactRules(r); err != nil {
		return 0, 0, 0, err
	}
	ad, err := newReadDist(context.Background(), a, advDie(r, aAdv))
	if err != nil {
		return 0, 0, 0, err
	}
	bd, err := newReadDist(context.Background(), b, advDie(r, bAdv))
	if err != nil {
		return 0, 0, 0, err
	}
	for i, ka := range ad.keys {
		for j, kb := range bd.keys {
			switch ka.cmp(kb) {
			case 1:
				aHigher += ad.p[i] * bd.p[j]
			case -1:
				bHigher += ad.p[i] * bd.p[j]
			default:
				tie += ad.p[i] * bd.p[j]
			}
		}
	}
	return aHigher, bHigher, tie, nil
}

// exactRules validates r and refuses, wrapping markov.ErrNoExact, the
// reading the exact model cannot take: it orders every roll as
// dice.CompareBonus does, and Rules.ShortRollTies ties rolls in a way no
// single order can (an extra die ties, yet the dice it ties with differ).
func exactRules(r Rules) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if r.ShortRollTies {
		return fmt.Errorf("%w: rules.short_roll_ties: the exact model reads an extra die as winning a tie", markov.ErrNoExact)
	}
	return nil
}

func advDie(r Rules, on bool) dice.Die {
	if on {
		return r.AdvantageDie
	}
	return dice.Gone
}

// Ending is how a two-sided conflict ends.
type Ending int

// Endings of a two-sided conflict, from side A's point of view first.
const (
	AOutright Ending = iota // A doubles B: B is exhausted or injured
	AGiven                  // B gives to A
	BOutright               // B doubles A
	BGiven                  // A gives to B
	numEndings
)

var endingNames = named.Enum[Ending]{"a_outright", "a_given", "b_outright", "b_given"}

// String returns the ending's name.
func (e Ending) String() string { return endingNames.String(e) }

// MarshalText writes the ending's name.
func (e Ending) MarshalText() ([]byte, error) { return endingNames.Marshal(e) }

// UnmarshalText reads an ending's name.
func (e *Ending) UnmarshalText(b []byte) error { return endingNames.Unmarshal(b, e) }

// roundOut is what one round leads to: an ending, or the next round with
// an advantage for nobody, A or B.
type roundOut struct {
	end       [numEndings]float64
	next      [3]float64 // next round: 0 no advantage, 1 A's, 2 B's
	exchanges float64    // expected exchanges in the round
}

// DuelOdds is the exact behaviour of a two-sided conflict under fixed
// stances.
type DuelOdds struct {
	// P is the chance of each Ending.
	P [numEndings]float64 `json:"p"`
	// MeanRounds and MeanExchanges are the expected rounds and exchanges.
	MeanRounds    float64 `json:"mean_rounds"`
	MeanExchanges float64 `json:"mean_exchanges"`
	// Rounds[t] is the chance the conflict lasts exactly t rounds, until
	// less than markov.RoundsTolerance is left; Tail is what is left.
	Rounds []float64 `json:"rounds"`
	Tail   float64   `json:"tail,omitempty"`
}

// Duel solves a conflict between side A rolling a and side B rolling b,
// each with one fixed stance (hangA: A hangs in when it must choose), no
// owe-list names crossed off, as an absorbing Markov chain over rounds:
// the state is who carries an advantage die into the round. Within a
// round the roles swap only on strictly higher answers, so each round is
// solved exactly by working down from the highest readings.
//
// True ties on the cast are recast at most Rules.MaxRecasts times a
// round, the earlier-listed side (A) challenging after the last, as the
// Engine plays it. A conflict that could outlast Rules.MaxExchanges
// answers with a chance above 1e-12 (a stalemate the chain over rounds
// cannot see) is refused with an error wrapping markov.ErrNoExact; below
// that, its stalemate is left out.
func Duel(r Rules, a, b []dice.Die, hangA, hangB bool) (DuelOdds, error) {
	return duelOdds(context.Background(), r, a, b, hangA, hangB)
}

// duelOdds is Duel, stopping with ctx's error when ctx is done.
func duelOdds(ctx context.Context, r Rules, a, b []dice.Die, hangA, hangB bool) (DuelOdds, error) {
	m, err := newDuelModel(ctx, r, a, b)
	if err != nil {
		return DuelOdds{}, err
	}
	if err := m.checkExchanges([2]bool{hangA, hangB}); err != nil {
		return DuelOdds{}, err
	}
	outs, err := m.rounds([2]bool{hangA, hangB})
	if err != nil {
		return DuelOdds{}, err
	}
	chain, err := markov.Explore(ctx, roundStart(0), func(s duelState, buf []markov.Step[duelState]) []markov.Step[duelState] {
		if s.end >= 0 {
			return buf
		}
		return outs[s.adv].steps(buf)
	})
	if err != nil {
		return DuelOdds{}, err
	}
	sol, err := chain.Solve()
	if err != nil {
		return DuelOdds{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	var res DuelOdds
	for s, p := range sol.All() {
		res.P[s.end] += p
	}
	res.MeanRounds = sol.ExpectedSteps
	if res.Rounds, res.Tail, err = chain.StepDist(100000, markov.RoundsTolerance); err != nil {
		return DuelOdds{}, err
	}
	// Expected exchanges: each round played from a state earns that
	// round's expected exchanges.
	res.MeanExchanges, err = chain.ExpectedReward(func(s duelState) float64 { return outs[s.adv].exchanges })
	if err != nil {
		return DuelOdds{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	return res, nil
}

// duelState is a state of Duel's chain over rounds: a round about to be
// cast, with the advantage die carried by nobody (adv 0), side A (1) or
// side B (2); or, once end >= 0, the conflict over with that Ending.
type duelState struct{ adv, end int8 }

func roundStart(adv int) duelState { return duelState{adv: int8(adv), end: -1} }

func ended(e Ending) duelState { return duelState{adv: -1, end: int8(e)} }

// duelModel is what Duel and Optimal need of two sides' dice: the exact
// distribution of each side's reading, without and with an advantage die.
type duelModel struct {
	ctx   context.Context // stops the model's work when done
	r     Rules
	dists [2][2]readDist // [side][advantage]
}

func newDuelModel(ctx context.Context, r Rules, a, b []dice.Die) (*duelModel, error) {
	if err := exactRules(r); err != nil {
		return nil, err
	}
	m := &duelModel{ctx: ctx, r: r}
	for s, ds := range [2][]dice.Die{a, b} {
		for adv := range 2 {
			d, err := newReadDist(ctx, ds, advDie(r, adv == 1))
			if err != nil {
				return nil, err
			}
			m.dists[s][adv] = d
		}
	}
	return m, nil
}

// rounds solves one round from each starting state (advantage to nobody,
// A or B) when side s hangs in (hang[s]) or gives whenever it must choose.
func (m *duelModel) rounds(hang [2]bool) ([3]roundOut, error) {
	return m.roundsAt(hang, 1)
}

// roundsAt is rounds with each exchange weighed by z (solveRound).
func (m *duelModel) roundsAt(hang [2]bool, z float64) ([3]roundOut, error) {
	var outs [3]roundOut
	for st := range 3 {
		var err error
		if outs[st], err = solveRound(m.ctx, m.r, m.dists[0][b2i(st == 1)], m.dists[1][b2i(st == 2)], hang, z); err != nil {
			return outs, err
		}
	}
	return outs, nil
}

// steps appends the round's transitions: to each ending and to each next
// round.
func (o *roundOut) steps(buf []markov.Step[duelState]) []markov.Step[duelState] {
	for e, p := range o.end {
		buf = append(buf, markov.Step[duelState]{To: ended(Ending(e)), P: p})
	}
	for n, p := range o.next {
		buf = append(buf, markov.Step[duelState]{To: roundStart(n), P: p})
	}
	return buf
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// solveRound works out one round between rolls distributed as da and db
// (each with this round's advantage folded in). vals[s][i] is what
// follows when side s challenges with standing roll keys[i] and the other
// side answers. Each exchange weighs what follows it by z: with z = 1 the
// round's chances, with z > 1 their generating function in the number of
// exchanges (checkExchanges).
// It stops with ctx's error when ctx is done.
func solveRound(ctx context.Context, r Rules, da, db readDist, hang [2]bool, z float64) (roundOut, error) {
	ds := [2]readDist{da, db}
	vals := [2][]roundOut{make([]roundOut, len(da.keys)), make([]roundOut, len(db.keys))}
	// Walk all keys of both sides from the highest down, so that every
	// higher answer is solved before the roll it beats.
	i, j := len(da.keys)-1, len(db.keys)-1
	for n := 1; i >= 0 || j >= 0; n++ {
		if n%64 == 0 && ctx.Err() != nil {
			return roundOut{}, ctx.Err()
		}
		var s, k int
		if j < 0 || (i >= 0 && da.keys[i].cmp(db.keys[j]) >= 0) {
			s, k = 0, i
			i--
		} else {
			s, k = 1, j
			j--
		}
		vals[s][k] = exchangeValue(r, s, ds[s].keys[k], ds[1-s], vals[1-s], hang)
		if z != 1 {
			vals[s][k].scale(z)
		}
	}
	// The cast: the higher roll challenges; a true tie is recast, at most
	// Rules.MaxRecasts times a round, and A challenges after the last (or
	// at once, with RecastTies off).
	var out, tied roundOut
	tie := 0.0
	for i, ka := range da.keys {
		if i%64 == 0 && ctx.Err() != nil {
			return roundOut{}, ctx.Err()
		}
		for j, kb := range db.keys {
			p := da.p[i] * db.p[j]
			switch c := ka.cmp(kb); {
			case c > 0:
				out.add(p, &vals[0][i])
			case c < 0:
				out.add(p, &vals[1][j])
			default:
				tie += p
				tied.add(p, &vals[0][i])
			}
		}
	}
	if r.RecastTies && tie > 0 {
		// Casts 0..MaxRecasts untied count tie^k each; the last cast
		// tied, tie^MaxRecasts times, leaves A challenging.
		last := math.Pow(tie, float64(r.MaxRecasts))
		f := float64(r.MaxRecasts + 1)
		if tie < 1 {
			f = (1 - last*tie) / (1 - tie)
		}
		out.scale(f)
		tied.scale(last)
	}
	out.add(1, &tied)
	return out, nil
}

// scale multiplies every chance of the round's future by f.
func (o *roundOut) scale(f float64) {
	for e := range o.end {
		o.end[e] *= f
	}
	for n := range o.next {
		o.next[n] *= f
	}
	o.exchanges *= f
}

// carried is the next round's state after the answerer hangs in against
// challenger c: c carries an advantage die, unless Rules.AdvantageDice is
// 0 and nobody does.
func carried(r Rules, c int) int {
	if r.AdvantageDice == 0 {
		return 0
	}
	return 1 + c
}

func (o *roundOut) add(p float64, v *roundOut) {
	for e := range o.end {
		o.end[e] += p * v.end[e]
	}
	for n := range o.next {
		o.next[n] += p * v.next[n]
	}
	o.exchanges += p * v.exchanges
}

// exchangeValue is the round's future when side c challenges with standing
// roll s and the other side answers from ans (whose values for higher
// rolls are in av).
func exchangeValue(r Rules, c int, s key, ans readDist, av []roundOut, hang [2]bool) roundOut {
	a := 1 - c
	var v roundOut
	v.exchanges = 1
	df := int16(r.DoubleFactor)
	for j, k := range ans.keys {
		p := ans.p[j]
		switch cm := k.cmp(s); {
		case cm > 0:
			v.add(p, &av[j])
		case cm == 0:
			v.next[0] += p
		case df*k[0] <= s[0]:
			v.end[AOutright+2*Ending(c)] += p
		case hang[a]:
			v.next[carried(r, c)] += p
		default:
			v.end[AGiven+2*Ending(c)] += p
		}
	}
	return v
}

// maxStalemate is the largest chance of a stalemate (Rules.MaxExchanges
// run out) an exact answer may leave out.
const maxStalemate = 1e-12

// checkExchanges refuses, wrapping markov.ErrNoExact, a duel that could
// outlast Rules.MaxExchanges answers with a chance above maxStalemate:
// the chain over rounds counts rounds, not answers. The chance is bounded
// by Chernoff's inequality, P(X > n) <= E[z^X] / z^(n+1) for any z > 1,
// where X is the number of exchanges and E[z^X] its generating function,
// solved over rounds (solveRound with z) for a few z, the least bound
// kept. Hanging in never ends a conflict sooner than giving, so a duel
// both hang in through bounds every stance.
func (m *duelModel) checkExchanges(hang [2]bool) error {
	n := m.r.MaxExchanges
	best := 1.0
	for z := 1 + 1.0/1024; z < 4; z = 1 + 2*(z-1) {
		outs, err := m.roundsAt(hang, z)
		if err != nil {
			return err
		}
		g, ok := generating(&outs)
		if !ok {
			break // E[z^X] diverges for this z and every larger one
		}
		if best = min(best, math.Exp(math.Log(g)-float64(n+1)*math.Log(z))); best <= maxStalemate {
			return nil
		}
	}
	if best > maxStalemate {
		return fmt.Errorf("%w: the conflict may outlast rules.max_exchanges = %d (a stalemate the exact model leaves out) with a chance up to %.2g; raise it",
			markov.ErrNoExact, n, best)
	}
	return nil
}

// generating solves G(s) = end(s) + sum over n of next(s, n) G(n) for
// the round states s by iteration from 0 (the weighted chances grow to
// E[z^X] from each state), and returns G at a conflict's start, or false
// when it does not settle (E[z^X] is infinite).
func generating(outs *[3]roundOut) (float64, bool) {
	var g [3]float64
	for range 10_000 {
		var next [3]float64
		for s := range 3 {
			v := 0.0
			for _, p := range outs[s].end {
				v += p
			}
			for n, p := range outs[s].next {
				v += p * g[n]
			}
			next[s] = v
		}
		if next[0] > 1e300 || math.IsNaN(next[0]) {
			return 0, false
		}
		if math.Abs(next[0]-g[0]) <= 1e-13*next[0] && math.Abs(next[1]-g[1]) <= 1e-13*next[1] && math.Abs(next[2]-g[2]) <= 1e-13*next[2] {
			return next[0], true
		}
		g = next
	}
	return 0, false
}

// maxRecastLeft is the largest chance the model with cross-offs, which
// recasts a tied cast without limit, may leave out per round for the
// Engine's limit of Rules.MaxRecasts.
const maxRecastLeft = 1e-15

// checkBounds refuses, wrapping markov.ErrNoExact, a conflict the model
// with cross-offs cannot answer within its bounds: one whose cast ties
// MaxRecasts+1 times running with a chance over maxRecastLeft (that model
// recasts without limit), or that could outlast Rules.MaxExchanges. The
// exchanges are bounded as in a duel both sides hang in through
// (checkExchanges): a name crossed off adds a die to one comparison, once.
func (m *duelModel) checkBounds() error {
	if m.r.RecastTies {
		for adv := range 3 {
			da, db := m.dists[0][b2i(adv == 1)], m.dists[1][b2i(adv == 2)]
			tie := 0.0
			for i, ka := range da.keys {
				if i%64 == 0 && m.ctx.Err() != nil {
					return m.ctx.Err()
				}
				for j, kb := range db.keys {
					if ka.cmp(kb) == 0 {
						tie += da.p[i] * db.p[j]
					}
				}
			}
			if left := math.Pow(tie, float64(m.r.MaxRecasts+1)); left > maxRecastLeft {
				return fmt.Errorf("%w: %d casts in a row tie with a chance of %.2g (rules.max_recasts = %d), and the exact model with cross-offs recasts without limit; raise it",
					markov.ErrNoExact, m.r.MaxRecasts+1, left, m.r.MaxRecasts)
			}
		}
	}
	return m.checkExchanges([2]bool{true, true})
}
