package simtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// mutGames is how many games give the saved states that are mutated.
const mutGames = 3

// saved is a state saved during play, decoded for mutating.
type saved struct {
	where string // which game and step saved it
	tree  any    // the JSON decoded with UseNumber
	canon []byte // tree encoded again, unchanged
}

// A mutant is one change to one saved state.
type mutant struct {
	base int    // index of the saved state
	path []any  // keys (string) and indices (int) from the root
	what string // the change, for the report
	drop bool   // drop the key at the end of path
	to   func(any) any
}

// mutation restores mutated copies of states saved during play and checks
// that each is refused, or plays to its end within MaxSteps steps, with no
// panic, no hang and no more than MaxAlloc bytes allocated.
func (k *kit) mutation(s *shortfalls) {
	states, err := k.savedStates()
	if err != nil {
		s.add("saving states to mutate: %v", err)
		return
	}
	var all []mutant
	for i, st := range states {
		all = enumerate(all, i, st.tree, nil)
	}
	for n, mu := range k.sample(all) {
		st := states[mu.base]
		b, err := json.Marshal(rewrite(st.tree, mu.path, mu))
		if err != nil || bytes.Equal(b, st.canon) {
			continue // a number set to the value it had tests nothing new
		}
		if err := k.tryMutant(b, uint64(n)); err != nil {
			s.add("%s, %s %s: %v", st.where, pathString(mu.path), mu.what, err)
			if s.full() {
				s.stopped = true
				return
			}
		}
	}
}

// savedStates plays the first few games, saving the state at steps 0, 1,
// 2, 4, 8, ... and at the end; repeated states are kept once.
func (k *kit) savedStates() ([]saved, error) {
	var out []saved
	seen := map[string]bool{}
	keep := func(game sim.Game, where string) error {
		b, err := game.Save()
		if err != nil {
			return fmt.Errorf("%s: Save: %w", where, err)
		}
		if seen[string(b)] {
			return nil
		}
		seen[string(b)] = true
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var tree any
		if err := d.Decode(&tree); err != nil {
			return fmt.Errorf("%s: Save wrote invalid JSON: %w", where, err)
		}
		canon, err := json.Marshal(tree)
		if err != nil {
			return fmt.Errorf("%s: encoding the saved state again: %w", where, err)
		}
		out = append(out, saved{where: where, tree: tree, canon: canon})
		return nil
	}
	for g := range min(k.opt.Games, mutGames) {
		err := guard(func() error { return k.saveAlong(g, keep) })
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (k *kit) saveAlong(g int, keep func(sim.Game, string) error) error {
	game, r, err := k.start(g)
	if err != nil {
		return err
	}
	for i := 0; !game.Done() && i < k.opt.MaxSteps; i++ {
		if i&(i-1) == 0 { // 0 and the powers of two
			if err := keep(game, fmt.Sprintf("game %d before step %d", g, i)); err != nil {
				return err
			}
		}
		if err := game.Step(r); err != nil {
			return fmt.Errorf("game %d step %d: Step failed: %w", g, i, err)
		}
	}
	return keep(game, fmt.Sprintf("game %d at its end", g))
}

// enumerate appends every mutant of node, found at path in saved state
// base, and of everything below it. Object keys are visited in sorted
// order so the list is the same on every run.
func enumerate(out []mutant, base int, node any, path []any) []mutant {
	at := func(what string, to func(any) any) {
		out = append(out, mutant{base: base, path: path, what: what, to: to})
	}
	switch n := node.(type) {
	case json.Number:
		// Below every range, the zero that is often out of range, just
		// past 32 bits, and past the integers a float64 holds exactly.
		numbers := [...]struct{ v, name string }{
			{"-1", "-1"}, {"0", "0"}, {"2147483648", "2^31"}, {"9007199254740992", "2^53"},
		}
		for _, v := range numbers {
			at("set to "+v.name, func(any) any { return json.Number(v.v) })
		}
	case string:
		at(`set to "bogus"`, func(any) any { return "bogus" })
	case bool:
		at("flipped", func(any) any { return !n })
	case []any:
		if len(n) > 0 {
			at("emptied", func(any) any { return []any{} })
			at("with its first element repeated at its end", func(any) any { return append(slices.Clone(n), n[0]) })
		}
		for i, v := range n {
			out = enumerate(out, base, v, append(slices.Clip(path), i))
		}
	case map[string]any:
		for _, key := range slices.Sorted(maps.Keys(n)) {
			p := append(slices.Clip(path), key)
			out = append(out, mutant{base: base, path: p, what: "dropped", drop: true})
			out = enumerate(out, base, n[key], p)
		}
	}
	return out
}

// sample picks at most Options.Mutants of the mutants, at random with the
// kit's seed, keeping their order.
func (k *kit) sample(all []mutant) []mutant {
	if len(all) <= k.opt.Mutants {
		return all
	}
	rng := rand.New(rand.NewPCG(k.opt.Seed, 0x6d757461)) // "muta"
	pick := rng.Perm(len(all))[:k.opt.Mutants]
	slices.Sort(pick)
	out := make([]mutant, len(pick))
	for i, j := range pick {
		out[i] = all[j]
	}
	return out
}

// rewrite returns a copy of node with mu applied at path, sharing the
// parts it does not change.
func rewrite(node any, path []any, mu mutant) any {
	if len(path) == 0 {
		return mu.to(node)
	}
	switch n := node.(type) {
	case map[string]any:
		key := path[0].(string)
		c := maps.Clone(n)
		if len(path) == 1 && mu.drop {
			delete(c, key)
		} else {
			c[key] = rewrite(n[key], path[1:], mu)
		}
		return c
	case []any:
		i := path[0].(int)
		c := slices.Clone(n)
		c[i] = rewrite(n[i], path[1:], mu)
		return c
	}
	return node
}

// pathString writes a path as $.key[index].key.
func pathString(path []any) string {
	b := []byte("$")
	for _, p := range path {
		switch p := p.(type) {
		case string:
			b = append(append(b, '.'), p...)
		case int:
			b = append(append(append(b, '['), strconv.Itoa(p)...), ']')
		}
	}
	return string(b)
}

// tryMutant restores state and plays it to its end in a goroutine of its
// own, so that a panic is caught and a hang is noticed (the goroutine of a
// hung game is left behind; the check has failed by then).
func (k *kit) tryMutant(state []byte, n uint64) error {
	done := make(chan error, 1)
	go func() { done <- k.playMutant(state, n) }()
	t := time.NewTimer(k.opt.MutantTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("hang: not refused and not ended after %v (Options.MutantTimeout)", k.opt.MutantTimeout)
	}
}

// playMutant restores state and plays it to its end, measuring what it
// allocates (the bytes the whole process allocated meanwhile: run the kit
// without parallel tests for an exact count).
func (k *kit) playMutant(state []byte, n uint64) error {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	err := guard(func() error { return k.playRestored(state, n) })
	runtime.ReadMemStats(&ms)
	if used := ms.TotalAlloc - before; used > uint64(k.opt.MaxAlloc) {
		return fmt.Errorf("restoring and playing it allocated %d bytes; allowed %d (Options.MaxAlloc)", used, k.opt.MaxAlloc)
	}
	return err
}

func (k *kit) playRestored(state []byte, n uint64) error {
	game, err := k.m.Restore(state)
	if err != nil {
		return nil // refused by the state check: the outcome wanted
	}
	if game == nil {
		return fmt.Errorf("restoring it gave a nil Game and no error")
	}
	r, err := dice.NewRoller(rand.NewPCG(k.opt.Seed, n))
	if err != nil {
		return err
	}
	for i := 0; !game.Done(); i++ {
		if i == k.opt.MaxSteps {
			return fmt.Errorf("accepted by Restore, it is still going after %d steps (Options.MaxSteps)", i)
		}
		if err := game.Step(r); err != nil {
			return fmt.Errorf("accepted by Restore, it was refused by step %d (the state check let through a state the steps refuse): %v", i, err)
		}
	}
	return nil
}
