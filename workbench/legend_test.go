package workbench

import (
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/sim"
)

// Every outcome and metric of every registered mechanic's built-in scenario
// (and of contest's basic action) has a legend entry. When a mechanic
// renames or adds one, this test names it.
func TestLegendCoversEveryName(t *testing.T) {
	variants := map[string][][]string{"contest": {nil, {"kind=basic"}}}
	for _, m := range testMechanics {
		name := m.Name
		terms := m.New().Describe().Terms
		for _, sets := range append([][]string{nil}, variants[name]...) {
			sc := m.fresh()
			if err := applySets(sc, sets); err != nil {
				t.Fatalf("%s %v: %v", name, sets, err)
			}
			spec, err := sc.spec(name)
			if err != nil {
				t.Fatalf("%s %v: %v", name, sets, err)
			}
			for _, n := range append(spec.Categories, spec.Metrics...) {
				if text, ok := explain(terms, n); !ok || text == "" {
					t.Errorf("%s (%v): %q has no term in the mechanic's Describe", name, sets, n)
				}
			}
		}
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		mech, name string
		want       string // a prefix of the text; "" for none
	}{
		{"edge", "lead_car_wins", "the lead car party wins"},
		{"edge", "pursuer_edge", "edge dice the pursuer party holds"},
		{"edge", "draw", "the interaction ended without a winner"},
		{"edge", "_wins", ""}, // a "*" stands for at least one letter
		{"contest", "villain_wins", "villain wins the contested action"},
		{"contest", "villain_wins_extraordinary", "villain wins by the Extraordinary margin"},
		{"contest", "detective_wins_give_in", "detective wins because the other side Gave In"},
		{"challenge", "althesa_outright", "althesa wins outright"},
		{"nosuch", "rounds", ""},
		{"actiontest", "nosuch", ""},
	}
	for _, tt := range tests {
		got, ok := explain(termsOf(tt.mech), tt.name)
		if ok != (tt.want != "") || !strings.HasPrefix(got, tt.want) {
			t.Errorf("explain(%s, %s) = %q, %v; want %q", tt.mech, tt.name, got, ok, tt.want)
		}
	}
}

func TestExplainFlag(t *testing.T) {
	code, out, errOut := stakes(t, "sim", "edge", "--trials", "500", "--explain")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	report, legend, ok := strings.Cut(out, "What the edge numbers mean:\n")
	if !ok || !strings.Contains(report, "500 trials") {
		t.Fatalf("no legend after the report:\n%s", out)
	}
	for _, want := range []string{"  outcomes (each trial ends in exactly one):\n    lead_car_wins\n",
		"  metrics (counted in each trial):\n    rounds\n", "    transfers\n        edge dice that changed hands"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q:\n%s", want, legend)
		}
	}
	code, out, _ = stakes(t, "--trials", "300", "--explain")
	if code != 0 || strings.Count(out, "numbers mean:") != len(testMechanics) {
		t.Errorf("report --explain: exit %d, %d legends", code, strings.Count(out, "numbers mean:"))
	}
	code, out, _ = stakes(t, "mechanics", "challenge")
	if code != 0 || !strings.Contains(out, "What the challenge numbers mean:") || !strings.Contains(out, "    sizes_lost\n") {
		t.Errorf("mechanics challenge lacks the legend:\n%s", out)
	}
	code, _, errOut = stakes(t, "sim", "edge", "--explain", "--json")
	if code != 2 || !strings.Contains(errOut, "--explain adds text to the table") {
		t.Errorf("--explain --json: exit %d %q", code, errOut)
	}
}

// termsOf returns the terms of the test mechanic named name, none for a
// name no test mechanic has.
func termsOf(name string) []sim.Term {
	for _, m := range testMechanics {
		if m.Name == name {
			return m.New().Describe().Terms
		}
	}
	return nil
}

// termsMechanic returns a fresh built-in scenario of the test mechanic
// named name.
func termsMechanic(name string) sim.Mechanic {
	for _, m := range testMechanics {
		if m.Name == name {
			return m.New()
		}
	}
	return nil
}
