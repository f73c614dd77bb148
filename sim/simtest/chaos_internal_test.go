package simtest

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

type pick struct {
	Index int
	Names []string
	Bold  bool
	note  string
}

type hidden struct{ n int }

// TestMutateChangesACopy mutates answers of every kind many times: each
// mutation is of the answer's type, differs from it, and leaves the
// answer (which a game may share) as it was.
func TestMutateChangesACopy(t *testing.T) {
	answers := []any{
		2, int8(3), int64(math.MaxInt64), uint(4), uint8(255), 1.5, float32(2), "cautious", true,
		[]int{1, 2, 3}, [2]int{1, 2}, []string{"a"},
		pick{Index: 1, Names: []string{"x", "y"}, note: "kept"},
		&pick{Index: 2}, []*pick{{Index: 1}}, struct{ Any any }{Any: 3},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range answers {
		for range 50 {
			before := deepCopy(a)
			mu := mutator{rng: rng, lens: []int{3, 7}}
			out, what, ok := mu.mutate(reflect.ValueOf(a), 0)
			if !ok {
				t.Fatalf("%#v: nothing mutated", a)
			}
			got := out.Interface()
			if reflect.TypeOf(got) != reflect.TypeOf(a) {
				t.Fatalf("%#v mutated (%s) to a %T", a, what, got)
			}
			if reflect.DeepEqual(got, a) {
				t.Errorf("%#v mutated (%s) to an equal value", a, what)
			}
			if !reflect.DeepEqual(a, before) {
				t.Fatalf("mutating (%s) changed the original: %#v, was %#v", what, a, before)
			}
		}
	}
}

// deepCopy copies what the answers of the test share: slices and the
// values pointers point to.
func deepCopy(a any) any {
	switch a := a.(type) {
	case []int:
		return slices.Clone(a)
	case []string:
		return slices.Clone(a)
	case pick:
		a.Names = slices.Clone(a.Names)
		return a
	case *pick:
		c := *a
		return &c
	case []*pick:
		c := make([]*pick, len(a))
		for i, p := range a {
			q := *p
			c[i] = &q
		}
		return c
	}
	return a
}

// TestMutateValues pins what each kind of value becomes.
func TestMutateValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]map[any]bool{}
	note := func(kind string, v any) {
		if seen[kind] == nil {
			seen[kind] = map[any]bool{}
		}
		seen[kind][v] = true
	}
	for range 400 {
		mu := mutator{rng: rng, lens: []int{10}}
		v, _, _ := mu.mutate(reflect.ValueOf(2), 0)
		note("int", v.Interface())
		v, _, _ = mu.mutate(reflect.ValueOf(int8(2)), 0)
		note("int8", v.Interface())
		v, _, _ = mu.mutate(reflect.ValueOf(uint16(2)), 0)
		note("uint16", v.Interface())
		v, _, _ = mu.mutate(reflect.ValueOf("x"), 0)
		note("string", v.Interface())
		v, _, _ = mu.mutate(reflect.ValueOf(false), 0)
		note("bool", v.Interface())
		v, _, _ = mu.mutate(reflect.ValueOf([]int{5, 6}), 0)
		s := v.Interface().([]int)
		switch {
		case len(s) == 0:
			note("slice", "emptied")
		case len(s) == 3 && (s[2] == 5 || s[2] == 6) && s[0] == 5 && s[1] == 6:
			note("slice", "grown")
		case len(s) == 2 && (s[0] != 5) != (s[1] != 6):
			note("slice", "one element")
		default:
			t.Errorf("[5 6] mutated to %v", s)
		}
	}
	want := map[string][]any{
		"int":    {-1, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15, math.MaxInt, math.MinInt},
		"int8":   {int8(-1), int8(3), int8(4), int8(5), int8(6), int8(7), int8(11), int8(12), int8(13), int8(14), int8(15), int8(math.MaxInt8), int8(math.MinInt8)},
		"uint16": {uint16(math.MaxUint16), uint16(3), uint16(4), uint16(5), uint16(6), uint16(7), uint16(11), uint16(12), uint16(13), uint16(14), uint16(15), uint16(1 << 15)},
		"string": {"bogus"},
		"bool":   {true},
		"slice":  {"emptied", "grown", "one element"},
	}
	for kind, vs := range want {
		if len(seen[kind]) != len(vs) {
			t.Errorf("%s: mutated to %v; want each of %v", kind, seen[kind], vs)
		}
		for _, v := range vs {
			if !seen[kind][v] {
				t.Errorf("%s: never mutated to %v; got %v", kind, v, seen[kind])
			}
		}
	}
}

// TestMutateLeavesAlone shows the values the mutator cannot change: it
// hands them back as they were and says so.
func TestMutateLeavesAlone(t *testing.T) {
	var nilPick *pick
	for _, a := range []any{nil, nilPick, []int{}, map[string]int{"a": 1}, func() {}, hidden{n: 1}, struct{ F func() }{}, make(chan int)} {
		mu := mutator{rng: rand.New(rand.NewPCG(1, 1))}
		if _, what, ok := mu.mutate(reflect.ValueOf(a), 0); ok {
			t.Errorf("%#v: mutated (%s); want it left alone", a, what)
		}
		c := &chaos{rng: rand.New(rand.NewPCG(1, 1))}
		for range 20 {
			got := c.choose(nil, a)
			if reflect.ValueOf(got).Kind() != reflect.Func && !reflect.DeepEqual(got, a) {
				t.Errorf("%#v: the Chooser answered %#v", a, got)
			}
		}
		if c.mutated != 0 || c.asked != 20 {
			t.Errorf("%#v: %d of %d answers counted mutated; want 0 of 20", a, c.mutated, c.asked)
		}
	}
}

// TestChooseWrongType shows the wrong-type Chooser: every answer is nil or
// an alien, whatever its type.
func TestChooseWrongType(t *testing.T) {
	c := &chaos{rng: rand.New(rand.NewPCG(1, 1)), wrong: true}
	kinds := map[string]bool{}
	for _, a := range []any{1, "x", pick{}, alien{}} {
		for range 10 {
			switch got := c.choose(nil, a); got {
			case nil:
				kinds["nil"] = true
			case alien{}:
				kinds["alien"] = true
			default:
				t.Errorf("%#v: answered %#v", a, got)
			}
		}
	}
	if len(kinds) != 2 {
		t.Errorf("answers of kinds %v; want nil and alien", kinds)
	}
}

// TestLengthsBounded shows the lengths are read from the view, bounded in
// depth and number, through pointers and cycles.
func TestLengthsBounded(t *testing.T) {
	type node struct {
		Items []int
		Next  *node
	}
	n := &node{Items: []int{1, 2, 3}}
	n.Next = n // a cycle
	got := lengths(reflect.ValueOf(n), 0, nil)
	if len(got) == 0 || len(got) > maxLengths || got[0] != 3 {
		t.Errorf("lengths of a cyclic view: %v", got)
	}
	big := make([][]int, 1000)
	if got := lengths(reflect.ValueOf(big), 0, nil); len(got) > maxLengths || got[0] != 1000 {
		t.Errorf("lengths of a big view: %d of them, first %v", len(got), got[:1])
	}
}
