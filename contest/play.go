package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Table says who decides: a Policy per character (by index; nil or missing
// means the default) and the GM's policy (buying 1s, the Trouble Pool's
// Complications, the out-of-time Complication).
type Table struct {
	Chars []Policy
	GM    Policy
}

func (tb *Table) of(c int) Policy {
	if c >= 0 && c < len(tb.Chars) && tb.Chars[c] != nil {
		return tb.Chars[c]
	}
	if c == TroublePool && tb.GM != nil {
		return tb.GM
	}
	return Sensible{}
}

func (tb *Table) gm() Policy {
	if tb.GM != nil {
		return tb.GM
	}
	return Sensible{}
}

// plan fills e.picks with side sd's base picks and n extras.
func (e *Engine) plan(sd *Side, n int) []Pick {
	e.picks = append(append(e.picks[:0], sd.Base...), sd.Extra[:n]...)
	return e.picks
}

// turnView fills v, a zero View, with what side t sees before rolling or
// Giving In. It reads the dice of the side's plan (checked when the action
// began, see sidePlan), so that Play can roll it without looking every
// trait up a second time: for e.planLo <= n <= e.planHi, plan(sd, n) passes every
// check of cost, costs e.planCost[n] and rolls e.planDice[:len(sd.Base)+n]
// (then the gang).
func (e *Engine) turnView(s *Scene, t int, v *View) {
	a := s.Action
	sd := &a.Sides[t]
	// v comes zeroed (every caller declares it just before): set field by
	// field, as a composite literal would be built aside and copied in.
	v.Kind, v.Side, v.Char, v.Stakes, v.Holder, v.Rolled, v.Target = a.Kind, t, sd.Char, a.Stakes, a.Holder, sd.Rolled, -1
	e.planLo, e.planHi = 0, -1
	if sd.Char == TroublePool {
		return
	}
	ch := &s.Characters[sd.Char]
	v.PlotPoints = ch.PlotPoints
	var pl *sidePlan
	if e.trustPlans {
		pl = &e.plans[t]
	} else {
		pl = e.planOf(s, t)
	}
	e.planCost = pl.cost
	nb, nx := len(sd.Base), len(sd.Extra)
	if cap(e.planDice) < nb+nx {
		e.planDice = make([]dice.Die, 0, nb+nx+8)
	}
	// Small helpers, each with few values live, so that their loops run
	// in registers.
	pd := e.planDice[:nb+nx]
	ok := readSizes(s, sd.Base, pd[:nb])
	v.Affordable = readAffordable(s, sd.Extra, pl.cost, ch.PlotPoints, pd[nb:])
	e.planDice = pd[:nb+v.Affordable]
	// The Keep largest sizes in reach give the best total.
	if e.Rules.Keep == 2 {
		// The shipped reading: the base pool with the gang, then the
		// affordable extras on top.
		a, b := addTop2(0, 0, pd[:nb])
		a, b = addTop2(a, b, sd.Gang)
		v.Best = sd.Aid + a + b
		a, b = addTop2(a, b, pd[nb:nb+v.Affordable])
		v.BestAll = sd.Aid + a + b
	} else {
		v.Best = sd.Aid + bestSizes(pd[:nb], sd.Gang, e.Rules.Keep)
		v.BestAll = v.Best
		if v.Affordable > 0 {
			v.BestAll = sd.Aid + bestSizes(e.planDice, sd.Gang, e.Rules.Keep)
		}
	}
	if ok {
		e.planLo, e.planHi = pl.lo, min(pl.hi, v.Affordable)
	}
}

// readSizes writes the ratings of picks into ds (as long), Gone for a
// pick that names no trait, and reports whether every one is there to
// roll.
func readSizes(s *Scene, picks []Pick, ds []dice.Die) bool {
	ok := true
	ds = ds[:len(picks)]
	for i, p := range picks {
		d := s.dieOf(p)
		ok = ok && d != dice.Gone
		ds[i] = d
	}
	return ok
}

// readAffordable counts the extra picks a side can roll on top of its
// base pool, in order: each must name a trait still there, and the pool
// up to it must be priced (cost) within the points the side has. It
// writes their ratings into ds.
func readAffordable(s *Scene, extra []Pick, cost []int, points int, ds []dice.Die) int {
	ds = ds[:len(extra)]
	for n, p := range extra {
		d := s.dieOf(p)
		if d == dice.Gone || n+1 >= len(cost) || cost[n+1] > points {
			return n
		}
		ds[n] = d
	}
	return len(extra)
}

// addTop2 adds sizes ds to the two largest a >= b, in registers and
// without branches on the sizes.
func addTop2(a, b int, ds []dice.Die) (int, int) {
	for _, d := range ds {
		x := int(d)
		b = max(b, min(a, x))
		a = max(a, x)
	}
	return a, b
}

// bestSizes is the sum of the keep largest sizes among ds and gang.
func bestSizes(ds, gang []dice.Die, keep int) int {
	if keep == 2 {
		// The shipped reading, in registers and without branches on the
		// sizes.
		a, b := 0, 0
		for _, d := range ds {
			x := int(d)
			b = max(b, min(a, x))
			a = max(a, x)
		}
		for _, d := range gang {
			x := int(d)
			b = max(b, min(a, x))
			a = max(a, x)
		}
		return a + b
	}
	var top [8]int
	keep = min(keep, len(top))
	add := func(x int) {
		for i := 0; i < keep; i++ {
			if x > top[i] {
				top[i], x = x, top[i]
			}
		}
	}
	for _, d := range ds {
		add(int(d))
	}
	for _, d := range gang {
		add(int(d))
	}
	n := 0
	for _, x := range top[:keep] {
		n += x
	}
	return n
}

// Play runs s's action to its end, asking tb's policies at every choice.
// It is the same sequence of steps a tool would take one at a time; an
// illegal choice from a policy stops it with an error naming the policy.
func (e *Engine) Play(s *Scene, r *dice.Roller, tb *Table) error {
	a := s.Action
	if a == nil {
		return e.phaseErr(a, "play")
	}
	for a.Phase != PhaseDone {
		if a.Phase == PhaseOpen || a.Phase == PhaseTurn {
			// The raise loop, quietly where it can be (see quiet.go).
			if took, err := e.quietTurns(s, r, tb); err != nil {
				return err
			} else if took {
				continue
			}
		}
		if err := e.decide(s, r, tb); err != nil {
			return err
		}
	}
	// Each side may buy back traits a Final Push lowered, then the GM may
	// turn its characters' Reflection Points into Trouble.
	for i := range a.Sides {
		if err := e.rebuyAll(s, a.Sides[i].Char, tb); err != nil {
			return err
		}
	}
	g := tb.gm()
	for i := range a.Sides {
		c := a.Sides[i].Char
		if c < 0 || !s.Characters[c].GM || s.Characters[c].Reflection == 0 {
			continue
		}
		v := View{Kind: a.Kind, Side: i, Char: c, Reflection: s.Characters[c].Reflection, Target: -1}
		if err := e.CashReflection(s, c, askCash(g, &v)); err != nil {
			return fmt.Errorf("policy %s cashing Reflection: %w", g.Name(), err)
		}
	}
	return nil
}

// rebuyAll asks character c's policy which lowered traits to buy back,
// as long as it has any and the points for a step.
func (e *Engine) rebuyAll(s *Scene, c int, tb *Table) error {
	if c < 0 || s.Timed != nil && s.Timed.Phase != TimedDone {
		return nil // no buying back in the middle of a timed action
	}
	if ch := &s.Characters[c]; ch.Reflection < e.Rules.RebuyCost || !ch.lowered() {
		return nil // the usual answer, without rebuyLoop's frame
	}
	return e.rebuyLoop(s, c, tb)
}

// rebuyLoop is rebuyAll once character c may buy a step back.
func (e *Engine) rebuyLoop(s *Scene, c int, tb *Table) error {
	ch := &s.Characters[c]
	for ch.Reflection >= e.Rules.RebuyCost && ch.lowered() {
		p := tb.of(c)
		v := View{Side: -1, Char: c, Reflection: ch.Reflection, RebuyCost: e.Rules.RebuyCost, Target: -1}
		i, n := askRebuy(p, &v, ch)
		if n == 0 {
			return nil
		}
		if err := e.Rebuy(s, c, i, n); err != nil {
			return fmt.Errorf("policy %s buying back a trait: %w", p.Name(), err)
		}
	}
	return nil
}

// decide takes one step of s's action by asking the policies.
func (e *Engine) decide(s *Scene, r *dice.Roller, tb *Table) error {
	a := s.Action
	switch a.Phase {
	case PhaseOpen, PhaseTurn:
		// A planned interferer steps in right after an escalating roll.
		if a.Phase == PhaseTurn && a.Escalated && a.Planned >= 0 && a.Interferer < 0 && len(a.Sides) == 2 {
			p := tb.of(a.Planned)
			ch := &s.Characters[a.Planned]
			v := View{Kind: a.Kind, Side: -1, Char: a.Planned, Stakes: a.Stakes, Holder: a.Holder, PlotPoints: ch.PlotPoints, Target: -1}
			a.Escalated = false
			if !ch.Out() && ch.PlotPoints >= e.Rules.InterfereCost && p.Interfere(v) {
				a.Escalated = true
				e.picks = append(e.picks[:0], a.IPicks...)
				if err := e.Interfere(s, r, a.Planned, e.picks); err != nil {
					return fmt.Errorf("policy %s interfering: %w", p.Name(), err)
				}
				return nil
			}
		}
		t := a.Turn
		sd := &a.Sides[t]
		if sd.Aider >= 0 && len(sd.Aiders) == 0 && !s.Characters[sd.Aider].Out() {
			if err := e.Aid(s, r, t, sd.Aider, sd.AidPicks); err != nil {
				return fmt.Errorf("aid for side %d: %w", t, err)
			}
		}
		p := tb.of(sd.Char)
		var v View
		e.turnView(s, t, &v)
		if a.Phase == PhaseTurn && sd.Char != TroublePool && askGiveIn(p, &v) {
			pay := PayNothing
			if sd.Rolled {
				v.Price = e.Rules.GiveInPlotPoints
				pay = p.Pay(v)
			}
			if err := e.GiveIn(s, pay); err != nil {
				return fmt.Errorf("policy %s giving in: %w", p.Name(), err)
			}
			return nil
		}
		n := 0
		if sd.Char != TroublePool {
			n = askExtras(p, &v)
			if n < 0 || n > v.Affordable {
				return fmt.Errorf("policy %s: %d extra dice: %s can afford 0..%d", p.Name(), n, s.Characters[sd.Char].Name, v.Affordable)
			}
		}
		var err error
		if e.planLo <= n && n <= e.planHi {
			// turnView has checked, priced and read this very pool: what
			// roll does with it, without its layer.
			if cost := e.planCost[n]; cost != 0 {
				err = e.spend(s, t, sd.Char, cost)
			}
			if err == nil {
				total, ones := e.rollSide(r, sd, sd.Base, sd.Extra[:n], e.planDice[:len(sd.Base)+n])
				e.rolled(s, r, t, total, ones)
			}
		} else {
			err = e.Roll(s, r, e.plan(sd, n))
		}
		if err != nil {
			return fmt.Errorf("policy %s rolling: %w", p.Name(), err)
		}
		if a.Ones > 0 {
			g := tb.gm()
			v = View{Kind: a.Kind, Side: a.OnesSide, Char: -1, Ones: a.Ones, Target: -1}
			if err := e.BuyOnes(s, askBuyOnes(g, &v)); err != nil {
				return fmt.Errorf("policy %s buying 1s: %w", g.Name(), err)
			}
		}
	case PhasePush:
		t := a.Turn
		sd := &a.Sides[t]
		p := tb.of(sd.Char)
		v := View{Kind: a.Kind, Side: t, Char: sd.Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: true, Margin: a.Margin, Target: -1}
		if need, ok := e.pushNeed(s, t); ok && askPush(p, &v) {
			steps, err := e.pushSteps(s, t, p, need)
			if err != nil {
				return err
			}
			// pushSteps has made each of Push's checks of these steps
			// (TestPushedAsPush): just lower the traits.
			e.pushed(s, steps, a.Margin-len(steps)*e.Rules.PushBonus)
			return nil
		}
		if err := e.Push(s, r, nil); err != nil {
			return fmt.Errorf("policy %s pushing: %w", p.Name(), err)
		}
	case PhaseInflict:
		h := a.Harms[0]
		p := tb.of(a.Sides[h.From].Char)
		onto := -1
		switch {
		case h.To == TroublePool:
			v := View{Kind: a.Kind, Side: h.From, Char: a.Sides[h.From].Char, Target: h.To, Trauma: h.Trauma}
			if len(s.Trouble) == 0 {
				onto = -1 // nothing left to take
			} else if onto = p.TroubleOff(v, s.Trouble); onto < 0 {
				return fmt.Errorf("policy %s: Trouble Pool die %d: pick one of 0..%d", p.Name(), onto, len(s.Trouble)-1)
			}
		case !ownLabel(p):
			v := View{Kind: a.Kind, Side: h.From, Char: a.Sides[h.From].Char, Target: h.To, Trauma: h.Trauma}
			onto = askOnto(p, &v, &s.Characters[h.To])
		}
		if err := e.Inflict(s, r, onto); err != nil {
			return fmt.Errorf("policy %s inflicting: %w", p.Name(), err)
		}
	case PhaseInterfere:
		for t := range a.Sides {
			sd := &a.Sides[t]
			if sd.Decided {
				continue
			}
			p := tb.of(sd.Char)
			ch := &s.Characters[sd.Char]
			v := View{Kind: a.Kind, Side: t, Char: sd.Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: sd.Rolled, PlotPoints: ch.PlotPoints, Target: -1, Price: e.Rules.ContinueCost}
			// A side that cannot pay has no choice to make.
			pay := ch.PlotPoints >= e.Rules.ContinueCost && p.Continue(v)
			if err := e.Continue(s, t, pay); err != nil {
				return fmt.Errorf("policy %s answering interference: %w", p.Name(), err)
			}
			return nil
		}
	case PhaseBrawl:
		return e.Brawl(s, r)
	}
	return nil
}

// pushNeed is how many Final Push steps side t (in PhasePush) needs to get
// under the Extraordinary margin, and whether its rolled traits can pay
// for that many without the push winning.
func (e *Engine) pushNeed(s *Scene, t int) (need int, ok bool) {
	a := s.Action
	need = (a.Margin-e.Rules.Extraordinary)/e.Rules.PushBonus + 1
	if a.Margin-need*e.Rules.PushBonus < a.PushFloor {
		return need, false
	}
	e.pushOpts(s, t)
	have := 0
	for _, o := range e.opts {
		have += stepsLeft(o.Die)
	}
	return need, have >= need
}

// pushOpts fills e.opts with the distinct traits of its own side t rolled,
// at their ratings now.
func (e *Engine) pushOpts(s *Scene, t int) {
	sd := &s.Action.Sides[t]
	e.opts = e.opts[:0]
	ts := s.Characters[sd.Char].Traits
outer:
	for _, p := range sd.Picks {
		if p.Owner != sd.Char || uint(p.Trait) >= uint(len(ts)) || !ts[p.Trait].Kind.Own() {
			continue
		}
		for _, o := range e.opts {
			if o.Trait == p.Trait {
				continue outer
			}
		}
		e.opts = append(e.opts, PushOption{Trait: p.Trait, Kind: ts[p.Trait].Kind, Die: ts[p.Trait].Die})
	}
}

// pushPlan asks policy p for the fewest Final Push steps that get side t
// under the Extraordinary margin, one step at a time; nil if its traits
// cannot pay for enough steps. A choice that is not a trait of its own the
// side rolled, or one already gone, is an error (nothing has changed yet:
// the plan is only applied by Push).
func (e *Engine) pushPlan(s *Scene, t int, p Policy) ([]Pick, error) {
	need, ok := e.pushNeed(s, t)
	if !ok {
		return nil, nil
	}
	return e.pushSteps(s, t, p, need)
}

// pushSteps is pushPlan once pushNeed has filled e.opts and found need
// steps affordable.
func (e *Engine) pushSteps(s *Scene, t int, p Policy, need int) ([]Pick, error) {
	a := s.Action
	sd := &a.Sides[t]
	e.steps = e.steps[:0]
	v := View{Kind: a.Kind, Side: t, Char: sd.Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: true, Margin: a.Margin, Target: -1}
	for len(e.steps) < need {
		v.Pushes = len(e.steps)
		k := askPushStep(p, &v, e.opts)
		i := -1
		for j := range e.opts {
			if e.opts[j].Trait == k {
				i = j
				break
			}
		}
		switch {
		case i < 0:
			return nil, fmt.Errorf("policy %s: Final Push step %d lowers trait %d: not a trait of %s's own that it rolled", p.Name(), len(e.steps)+1, k, s.Characters[sd.Char].Name)
		case e.opts[i].Die == dice.Gone:
			return nil, fmt.Errorf("policy %s: Final Push step %d lowers %q, already gone", p.Name(), len(e.steps)+1, s.Characters[sd.Char].Traits[k].Name)
		}
		e.opts[i].Die, _ = e.opts[i].Die.StepDown()
		v.Margin -= e.Rules.PushBonus
		e.steps = append(e.steps, Pick{sd.Char, k})
	}
	return e.steps, nil
}

// PlayTimed runs s's timed action to its end with tb's policies: the actor
// rolls its planned pool each step, the first helper still able tries to
// buy time in a gap when its policy says so, the actor chooses at zero
// beats, and the GM picks where the out-of-time Complication lands.
func (e *Engine) PlayTimed(s *Scene, r *dice.Roller, tb *Table) error {
	t := s.Timed
	if t == nil {
		return e.timedErr(t, "play")
	}
	for t.Phase != TimedDone {
		v := View{Side: -1, Char: t.Actor, Beats: t.Beats, StepsLeft: len(t.Steps) - t.Step, Target: -1,
			PlotPoints: s.Characters[t.Actor].PlotPoints}
		switch t.Phase {
		case TimedGap:
			if !t.Bought {
				for h := range t.Helpers {
					hp := &t.Helpers[h]
					if hp.Out || s.Characters[hp.Char].Out() {
						continue
					}
					p := tb.of(hp.Char)
					if p.BuyTime(v) {
						if err := e.BuyTime(s, r, h); err != nil {
							return fmt.Errorf("policy %s buying time: %w", p.Name(), err)
						}
						if err := e.timedOnes(s, tb); err != nil {
							return err
						}
					}
					break
				}
			}
			if err := e.TimedRoll(s, r, nil); err != nil {
				return err
			}
			if err := e.timedOnes(s, tb); err != nil {
				return err
			}
		case TimedStepPhase:
			if err := e.TimedRoll(s, r, nil); err != nil {
				return err
			}
			if err := e.timedOnes(s, tb); err != nil {
				return err
			}
		case TimedChoose:
			if err := e.Choose(s, tb.of(t.Actor).Objective(v)); err != nil {
				return err
			}
		case TimedInflictPhase:
			g := tb.gm()
			v.Target = t.Actor
			if err := e.TimedInflict(s, r, g.Onto(v, &s.Characters[t.Actor])); err != nil {
				return fmt.Errorf("policy %s inflicting: %w", g.Name(), err)
			}
		}
	}
	return nil
}

// timedOnes asks the GM about the 1s of the timed action's last roll.
func (e *Engine) timedOnes(s *Scene, tb *Table) error {
	t := s.Timed
	if t.Ones == 0 {
		return nil
	}
	g := tb.gm()
	if err := e.BuyOnes(s, g.BuyOnes(View{Side: -1, Char: -1, Ones: t.Ones, Target: -1})); err != nil {
		return fmt.Errorf("policy %s buying 1s: %w", g.Name(), err)
	}
	return nil
}
