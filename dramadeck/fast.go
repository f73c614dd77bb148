package dramadeck

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// quietPass is one pass of side's turns in speed order under Style sp
// when no Sink listens and no log records faces: PlayRound under a Style,
// which is how the simulator plays. It is styleTurn for each character
// with the side worked out once, and a plain Attack or All-Out Attack
// resolved in place: actOn, attack and skillRollOf in one body with their
// common cases written out (no bonus, a success or nothing to re-roll
// with, faces kept) and the rarer ones handed to the general steps
// (reroll, successRoll, rollD6, strip). Anything other than a plain attack
// (Setback, a hurt cautious character, a contest worth taking, no active
// opponent, Monologue) is left to styleTurn, whose choose finds the same
// choice again (it changes nothing). TestPlayRoundMatchesSteps and
// TestQuietRoundMatchesLogged play rounds this way and through the
// general steps (with a Sink and a log) and compare the states.
//
// The weakest opponent is found once and kept while only attacks on it
// follow: an attack changes no other opponent and only lowers the
// target's HP, so the target stays the first of the lowest until it is
// out of the fight. Any turn left to styleTurn forgets it. The contests
// open to the side are read once: they change only with the card, which
// nothing in a pass turns.
func (g *Game) quietPass(r *dice.Roller, side Side, sp *Style) error {
	s := &g.State
	nh := len(s.Heroes)
	hero := side == Heroes
	own, opp, off, oppOff := s.Heroes, s.Villains, 0, nh
	if !hero {
		own, opp, off, oppOff = s.Villains, s.Heroes, nh, 0
	}
	act := Attack
	if sp.AllOut {
		act = AllOutAttack
	}
	a0, a1 := sp.contests(g, side)
	anyContest := a0.Contest() || a1.Contest()
	// Setback, Combat and Monologue hold for the whole pass: only the
	// line (turned at the start of the round or by a declaration) and a
	// declared Monologue set them.
	open := !s.Setback[side] && s.Combat && !s.Monologue
	defendBelow := sp.DefendBelow
	// A successful attack draws a card for a hero when the card
	// approves it, or strips a pool for a villain when the line's
	// villain action is an attack: the card stays for the pass.
	cards := false
	if len(s.Stack) > 0 {
		if hero {
			cards = g.Deck.Cards[s.Stack[len(s.Stack)-1]].Approves(act)
		} else {
			cards = s.Line.VillainAction == Attack
		}
	}
	k := &g.kd
	t := -1 // the weakest opponent, while known
	for _, ci := range g.sideOrder(side) {
		c := &own[ci-off]
		if !c.Active() || s.Outcome != Ongoing {
			continue
		}
		plain := open && (defendBelow <= 0 || c.HP*100 >= c.MaxHP*defendBelow)
		if plain && (t < 0 || !opp[t].Active()) {
			t = weakest(opp)
		}
		// contestOf written out (contestBetter inlines; a call here would
		// spill and reload the pass's values around it).
		if !plain || t < 0 || (anyContest && (a0.Contest() && sp.contestBetter(a0, c, &opp[t]) || a1.Contest() && sp.contestBetter(a1, c, &opp[t]))) {
			t = -1
			if err := g.styleTurn(r, ci, sp); err != nil {
				return err
			}
			continue
		}
		tc := &opp[t]
		st := &c.Status
		st.Posture = NoAct // a posture lasts until the character acts again
		if st.Stunned || st.LoseAction {
			st.Stunned, st.LoseAction = false, false
			g.afterAction(ci, st, false)
			if hero {
				if err := g.offerMove(ci, sp); err != nil {
					return err
				}
			}
			continue
		}
		eff := c.Attack.Level
		if st.Unskilled {
			eff, st.Unskilled = c.Attack.Default, false
		}
		if act == AllOutAttack {
			eff += g.Rules.AllOutAttackBonus
			st.Posture = AllOutAttack
		}
		// skillRollOf's bonuses for a physical roll.
		if st.RoundBonus|st.Next[0]|st.Next[1]|st.Next[2]|st.Support != 0 {
			bonus, _ := st.takeBonus(Physical, g.Rules.Bonus)
			eff += bonus
		}
		// The success roll: successRoll's common case written out (three
		// kept faces, after a refill if fewer are left; a skill on the
		// table), as for the defence below.
		var res outcome
		if k.n < 3 && k.on && r.Remaining() == 0 {
			k.x, k.n = uint64(r.IntN(keptRange)), keptFaces
		}
		if i := uint(eff - judgeLo); k.n >= 3 && i < judgeSpan {
			v := k.x % 216
			k.x /= 216
			k.n -= 3
			roll := int(sum3d6[v])
			i &= judgeSpan - 1
			ok := g.jt.okBits[i][v>>6&3]>>(v&63)&1 != 0
			res = outcome{roll, eff - roll, ok, g.jt.flags[roll&31][i]&judgeCrit != 0}
		} else {
			res = g.successRoll(r, eff)
		}
		if res.Success {
			if res.Critical {
				st.Crit = true
			}
		} else if st.Luck|st.Up|st.CardPoss|c.Possibilities != 0 {
			res = g.reroll(r, ci, c, eff, res, sp)
		}
		// attack's defence, Opponent Fails and damage.
		hit := res.Success
		if hit && !res.Critical && tc.Status.Posture != AllOutAttack {
			def := g.defense(tc)
			if k.n < 3 && k.on && r.Remaining() == 0 {
				k.x, k.n = uint64(r.IntN(keptRange)), keptFaces
			}
			if i := uint(def - judgeLo); k.n >= 3 && i < judgeSpan {
				v := k.x % 216
				k.x /= 216
				k.n -= 3
				hit = g.jt.okBits[i&(judgeSpan-1)][v>>6&3]>>(v&63)&1 == 0
			} else {
				hit = !g.successRoll(r, def).Success
			}
		}
		// From here the hit, which is the dice's, is read as data where
		// it can: Opponent Fails is tested first, the common damage roll
		// takes its faces only on a hit and is masked to nothing on a
		// miss, and the rarer outcomes test the hit last.
		if tc.Status.Fails > 0 && hit {
			tc.Status.Fails--
			hit = false
		}
		dmg := 0
		if n := c.Damage.Dice; uint(n) <= 2 && k.n >= 2 && st.Coup == 0 {
			// rollD6's two-dice case written out.
			h := int(b2u(hit))
			x, q := k.x, k.x/36
			if hit {
				x = q // a conditional move
			}
			dmg = max(int(sumFirst[n][k.x%36])+c.Damage.Add-tc.DR, 0) & -h
			k.x, k.n = x, k.n-2*h
		} else if hit {
			dmg = g.rollD6(r, n) + c.Damage.Add
			if st.Coup > 0 {
				dmg += dmg * g.Rules.CoupPercent * st.Coup / 100
				st.Coup = 0
			}
			dmg = max(dmg-tc.DR, 0)
		}
		tc.HP -= dmg
		if (tc.HP <= 0 || dmg*2 > tc.MaxHP) && hit {
			if tc.HP <= 0 {
				tc.Status.Out = true
				g.checkOutcome()
			} else {
				tc.Status.Stunned = true
			}
		}
		harmed := dmg > 0
		// actOn's cards after a success.
		if cards && hit && s.Outcome == Ongoing {
			if hero {
				g.drawTo(r, ci, EvDraw)
			} else if err := g.strip(t+oppOff, sp); err != nil {
				return fmt.Errorf("policy %s: %w", sp.Name(), err)
			}
		}
		// afterAction, with the or of the flags as bytes (harmed is the
		// dice's).
		st.Harmed = b2u(st.Harmed)|b2u(harmed) != 0
		st.StymiedNext = false // lapses at the end of the next action
		if st.Broken {
			g.broken(ci, harmed)
		}
		if !hero {
			continue
		}
		// actOn's leave to move a card (set before afterAction there,
		// which does not read it), then styleTurn's move: none from an
		// empty hand, as often in a fight, where Move finds nothing.
		pl := &s.Players[ci]
		if !pl.Moved {
			pl.MayMove = true
		}
		if pl.MayMove && len(pl.Hand) > 0 {
			if id := sp.Move(g, ci); id >= 0 {
				if err := g.MoveToPool(ci, id); err != nil {
					return fmt.Errorf("policy %s: %w", sp.Name(), err)
				}
			}
		}
	}
	return nil
}
