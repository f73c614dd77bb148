package dramadeck

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// stepRound is PlayRound written with the public steps only (BeginRound,
// Critical Moment or Declare, Act, MoveToPool, EndRound) and its own
// acting order: the reference PlayRound's shortcuts are checked against.
func stepRound(t *testing.T, g *Game, r *dice.Roller, heroes, gm Policy) {
	t.Helper()
	if err := g.BeginRound(r); err != nil {
		t.Fatal(err)
	}
	s := &g.State
	for p := range s.Players {
		if !s.Heroes[p].Active() || s.Outcome != Ongoing {
			continue
		}
		move := heroes.Critical(g, p, nil)
		plays := heroes.Declare(g, p, nil, move)
		var err error
		if len(move) > 0 {
			err = g.CriticalMoment(r, p, move, plays)
		} else if !s.Confused || len(plays) > 0 {
			err = g.Declare(r, p, plays)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	turn := func(ci int, pol Policy) {
		if !g.char(ci).Active() || s.Outcome != Ongoing {
			return
		}
		if err := g.Act(r, ci, pol.Choose(g, ci), pol); err != nil {
			t.Fatal(err)
		}
		if ci < len(s.Heroes) && s.Players[ci].MayMove {
			if id := pol.Move(g, ci); id >= 0 {
				if err := g.MoveToPool(ci, id); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for p := range s.Players {
		for s.Heroes[p].Status.Extra > 0 && !s.Monologue {
			s.Heroes[p].Status.Extra--
			turn(p, heroes)
		}
		s.Heroes[p].Status.Extra = 0
	}
	if !s.Monologue {
		for _, side := range []Side{s.Line.First, s.Line.First.Other()} {
			pol, lo, hi := heroes, 0, len(s.Heroes)
			if side == Villains {
				pol, lo, hi = gm, len(s.Heroes), len(s.Heroes)+len(s.Villains)
			}
			var order []int
			for ci := lo; ci < hi; ci++ {
				order = append(order, ci)
			}
			sort.SliceStable(order, func(a, b int) bool { return g.char(order[a]).Speed > g.char(order[b]).Speed })
			passes := 1
			if s.Flurry[side] {
				passes = 2
			}
			for range passes {
				for _, ci := range order {
					turn(ci, pol)
				}
			}
		}
	}
	g.EndRound()
}

// TestPlayRoundMatchesSteps: PlayRound (the benchmarked combat round, with
// its shortcuts and its dice drawn ahead) and the same round made of public
// steps give the same events and the same state, round by round, under
// every pairing of policies in Standard and Dramatic scenes. PlayRound runs
// on a seeded roller and logs every face it takes; the step-made round and
// PlayRound itself then replay those faces from a script, die by die (the
// general path), and must use them all. A fourth game plays PlayRound with
// no Sink and no log, the simulator's way, from its own roller of the same
// seed, and must reach the same states and leave its roller in step.
func TestPlayRoundMatchesSteps(t *testing.T) {
	s := DefaultScenario()
	pols := Policies()
	reshuffles := 0
	for i := range 2 * len(pols) * len(pols) {
		s.HeroPolicy, s.GMPolicy = pols[i%len(pols)], pols[(i/len(pols))%len(pols)]
		s.Dramatic = i >= len(pols)*len(pols)
		// games[3] plays PlayRound as the simulator does, with no Sink
		// and no log (its quiet shortcuts), on its own roller of the
		// same seed: it must reach the same states.
		var games [4]*Game
		var traces [4]Trace
		for k := range games {
			rn, err := s.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			g := rn.g
			if k < 3 {
				g.Sink = traces[k].Add
			}
			games[k] = g
			r := dice.NewSeeded(uint64(i))
			deal(t, g, r, s.Dramatic)
			if i%2 == 1 {
				// A short draw pile: the discards are shuffled back in
				// mid-round (a draw the fast round logs too).
				st := &g.State
				keep := len(st.Draw) - 3
				st.Discard = append(st.Discard, st.Draw[:keep]...)
				st.Draw = append(st.Draw[:0], st.Draw[keep:]...)
			}
		}
		hp, gm := mustPolicy(t, s.HeroPolicy), mustPolicy(t, s.GMPolicy)
		fast, quiet := dice.NewSeeded(uint64(i)), dice.NewSeeded(uint64(i))
		var faces []int
		games[0].kd.log = &faces
		rounds := 0
		for games[0].State.Outcome == Ongoing && games[0].State.Round < s.MaxRounds {
			faces = faces[:0]
			if err := games[0].PlayRound(fast, hp, gm); err != nil {
				t.Fatal(err)
			}
			steps, script := dice.Scripted(faces...), dice.Scripted(faces...)
			stepRound(t, games[1], steps, hp, gm)
			if err := games[3].PlayRound(quiet, hp, gm); err != nil {
				t.Fatal(err)
			}
			if err := games[2].PlayRound(script, hp, gm); err != nil {
				t.Fatal(err)
			}
			rounds++
			for k, r := range []*dice.Roller{steps, script} {
				if r.Remaining() != 0 || r.Err() != nil {
					t.Fatalf("%s v %s, dramatic %v, round %d, game %d: %d of %d faces left, err %v", s.HeroPolicy, s.GMPolicy, s.Dramatic, rounds, k+1, r.Remaining(), len(faces), r.Err())
				}
			}
			for k := 1; k < len(games); k++ {
				if d := cmp.Diff(traces[k].Events, traces[0].Events); k < 3 && d != "" {
					t.Fatalf("%s v %s, dramatic %v, round %d: events (-game %d +PlayRound):\n%s", s.HeroPolicy, s.GMPolicy, s.Dramatic, rounds, k, d)
				}
				if d := cmp.Diff(games[k].State, games[0].State); d != "" {
					t.Fatalf("%s v %s, dramatic %v, round %d: state (-game %d +PlayRound):\n%s", s.HeroPolicy, s.GMPolicy, s.Dramatic, rounds, k, d)
				}
			}
		}
		if a, b := fast.IntN(1<<62), quiet.IntN(1<<62); a != b {
			t.Errorf("%s v %s, dramatic %v: the quiet game's roller drew differently (%d, %d next)", s.HeroPolicy, s.GMPolicy, s.Dramatic, b, a)
		}
		for _, e := range traces[0].Events {
			if e.Kind == EvReshuffle {
				reshuffles++
			}
		}
		if rounds < 2 {
			t.Errorf("%s v %s: only %d rounds compared", s.HeroPolicy, s.GMPolicy, rounds)
		}
	}
	if reshuffles < 8 {
		t.Errorf("%d reshuffles in the compared rounds, want some", reshuffles)
	}
}

// TestQuietRoundMatchesLogged: PlayRound with no Sink and no log (the
// simulator's way, which resolves plain attacks in quietPass) and
// PlayRound with both (every action through the general steps) reach the
// same state round by round, over long fights: HP are made huge so that
// 60 rounds are played, under every pairing of policies in Standard and
// Dramatic scenes, so that the rarer paths (a villain's approved attack
// stripping a pool, a Fatigued defender's halved Dodge, Opponent Fails)
// come up; the test checks that they do. (Stunning needs a major wound,
// which TestPlayRoundMatchesSteps's ordinary HP give.)
func TestQuietRoundMatchesLogged(t *testing.T) {
	s := DefaultScenario()
	s = unkillable(s)
	pols := Policies()
	var strips, halved, fails int
	for i := range 2 * len(pols) * len(pols) {
		s.HeroPolicy, s.GMPolicy = pols[i%len(pols)], pols[(i/len(pols))%len(pols)]
		s.Dramatic = i >= len(pols)*len(pols)
		var games [2]*Game
		var rollers [2]*dice.Roller
		for k := range games {
			rn, err := s.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			games[k], rollers[k] = rn.g, dice.NewSeeded(uint64(i))
			deal(t, games[k], rollers[k], s.Dramatic)
		}
		var tr Trace
		var faces []int
		games[1].Sink, games[1].kd.log = tr.Add, &faces
		hp, gm := mustPolicy(t, s.HeroPolicy), mustPolicy(t, s.GMPolicy)
		for round := 1; round <= 60 && games[1].State.Outcome == Ongoing; round++ {
			faces = faces[:0]
			for _, g := range games {
				for ci := range len(g.State.Heroes) + len(g.State.Villains) {
					c := g.char(ci)
					if c.Active() && c.FP*3 < c.MaxFP {
						halved++
					}
				}
			}
			for k, g := range games {
				if err := g.PlayRound(rollers[k], hp, gm); err != nil {
					t.Fatal(err)
				}
			}
			if d := cmp.Diff(games[1].State, games[0].State); d != "" {
				t.Fatalf("%s v %s, dramatic %v, round %d: state (-logged +quiet):\n%s", s.HeroPolicy, s.GMPolicy, s.Dramatic, round, d)
			}
		}
		if a, b := rollers[0].IntN(1<<62), rollers[1].IntN(1<<62); a != b {
			t.Errorf("%s v %s, dramatic %v: the rollers drew differently (%d quiet, %d logged next)", s.HeroPolicy, s.GMPolicy, s.Dramatic, a, b)
		}
		for _, e := range tr.Events {
			switch {
			case e.Kind == EvStrip:
				strips++
			case e.Kind == EvEffect && e.Value == int(OpponentFails):
				fails++
			}
		}
	}
	if strips == 0 || halved == 0 || fails == 0 {
		t.Errorf("strips %d, halved Dodge %d, Opponent Fails %d: want some of each", strips, halved, fails)
	}
}
