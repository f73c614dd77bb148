package contest

import (
	"bytes"
	"testing"

	"github.com/stakesrpg/stakes/dice"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// diff is cmp.Diff that leaves out a State's scratch space, which no step
// promises anything about.
func diff(want, got any, opts ...cmp.Option) string {
	return cmp.Diff(want, got, append(opts, cmpopts.IgnoreUnexported(State{}))...)
}

func ptr[T any](v T) *T { return &v }

// playWith plays s to its end (Engine.Play) on a copy of e whose Policies
// are tb.
func playWith(e *Engine, s *State, r *dice.Roller, tb *Table) error {
	c := *e
	c.Policies = *tb
	return c.Play(s, r)
}

// stepWith takes one step (Engine.Step) on a copy of e whose Policies are
// tb.
func stepWith(e *Engine, s *State, r *dice.Roller, tb *Table) error {
	c := *e
	c.Policies = *tb
	return c.Step(s, r)
}

// trial is rn.Trial, failing t on an error.
func trial(t testing.TB, rn *Runner, r *dice.Roller, m []int) int {
	t.Helper()
	c, err := rn.Trial(r, m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
