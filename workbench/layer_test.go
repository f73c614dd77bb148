package workbench

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/edge"
)

// coinAfter applies sets to the built-in coin scenario and returns it.
func coinAfter(t *testing.T, sets ...string) coinScenario {
	t.Helper()
	sc := coin.fresh()
	if err := applySets(sc, sets); err != nil {
		t.Fatalf("--set %q: %v", sets, err)
	}
	return *sc.ptr().(*coinScenario)
}

// TestSetChangesExactlyWhatItNames sets one key of every kind, zero values
// included, and checks that the scenario differs from the built-in one in
// that key alone.
func TestSetChangesExactlyWhatItNames(t *testing.T) {
	base := coinAfter(t)
	for _, tc := range []struct {
		set  string
		edit func(*coinScenario)
	}{
		{"target=3", func(s *coinScenario) { s.Target = 3 }},
		{"label=", func(s *coinScenario) { s.Label = "" }},
		{"label=two words", func(s *coinScenario) { s.Label = "two words" }},
		{"weight=0", func(s *coinScenario) { s.Weight = 0 }},
		{"weight=0.25", func(s *coinScenario) { s.Weight = 0.25 }},
		{"loud=false", func(s *coinScenario) { s.Loud = false }},
		{"tags.a=0", func(s *coinScenario) { s.Tags = map[string]int{"a": 0, "b": 2} }},
		{"tags={}", func(s *coinScenario) { s.Tags = map[string]int{} }},
		{"tags={\"c\":5}", func(s *coinScenario) { s.Tags = map[string]int{"c": 5} }},
		{"big=9223372036854775807", func(s *coinScenario) { s.Big = math.MaxInt64 }},
		{"big=0", func(s *coinScenario) { s.Big = 0 }},
		{"inner.bonus=[]", func(s *coinScenario) { s.Inner.Bonus = []int{} }},
		{"teams.1.bonus=0", func(s *coinScenario) { s.Teams[1].Bonus = 0 }},
		{"teams.0.name=greens", func(s *coinScenario) { s.Teams[0].Name = "greens" }},
		{"teams=[{\"name\":\"solo\"}]", func(s *coinScenario) { s.Teams = []coinTeam{{Name: "solo"}} }},
	} {
		want := coinAfter(t)
		want.Tags = maps(want.Tags)
		want.Teams = append([]coinTeam(nil), want.Teams...)
		tc.edit(&want)
		got := coinAfter(t, tc.set)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("--set %s: (-want +got)\n%s", tc.set, diff)
		}
	}
	if diff := cmp.Diff(base, coinAfter(t)); diff != "" {
		t.Errorf("the built-in scenario changed: %s", diff)
	}
}

func maps(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestSetZeroBonusEdgeChangesTheOdds is the designer's house rule that was
// silently dropped: the pursuer's +1 edge set back to 0.
func TestSetZeroBonusEdgeChangesTheOdds(t *testing.T) {
	code, out, errOut := stakes(t, "odds", "edge", "--set", "parties.1.bonus_edge=0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct{ Exact exactView }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	s := edge.DefaultScenario()
	s.Parties[1].BonusEdge = 0
	want, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Exact.P[0]-want.P[0]) > 1e-12 || math.Abs(want.P[0]-0.3617) > 1e-4 {
		t.Errorf("P(lead car) = %v, library with BonusEdge 0 says %v (about 0.3617)", got.Exact.P[0], want.P[0])
	}
}

// TestFileIsAMergePatch: objects merge key by key, lists replace whole
// with each element exactly as written, null resets a key.
func TestFileIsAMergePatch(t *testing.T) {
	p := filepath.Join(t.TempDir(), "patch.jsonc")
	text := `{
  "mechanic": "coin",
  "scenario": {
    "target": 2,
    "tags": {"b": 9, "c": 3},
    "teams": [{"name": "greens"},],
    "loud": null,
  },
}`
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	lf, err := testEnv().loadScenarioFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := coinAfter(t)
	want.Target = 2
	want.Tags = map[string]int{"a": 1, "b": 9, "c": 3}
	want.Teams = []coinTeam{{Name: "greens"}}
	want.Loud = false
	if diff := cmp.Diff(want, *lf.scenario.ptr().(*coinScenario)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestShippedEdgeFileMatchesTheLibrary: examples/scenarios/edge.jsonc's
// sycophants leave perception out, so they have none (not the built-in
// Bob's 3), and the court's odds are the library's for that scenario.
func TestShippedEdgeFileMatchesTheLibrary(t *testing.T) {
	lf, err := testEnv().loadScenarioFile("../examples/scenarios/edge.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	got := *lf.scenario.ptr().(*edge.Scenario)
	syc := got.Parties[0].Members[1]
	if _, ok := syc.Skills["perception"]; ok {
		t.Errorf("the sycophants have perception %d; the file gives them none", syc.Skills["perception"])
	}
	want := edge.DefaultScenario()
	raw, err := os.ReadFile("../examples/scenarios/edge.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	// The file's parties and rules, decoded on their own, are what the
	// library plays with; everything else is the built-in scenario's.
	text, _ := stripComments(raw)
	var f struct {
		Scenario struct {
			Type    string         `json:"type"`
			Parties []edge.Party   `json:"parties"`
			Rules   map[string]any `json:"rules"`
		} `json:"scenario"`
	}
	if err := json.Unmarshal(text, &f); err != nil {
		t.Fatal(err)
	}
	want.Type, want.Parties = f.Scenario.Type, f.Scenario.Parties
	want.Rules.StartEdge = 5
	want.Rules.Repetition = []int{-1, -2, -3}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("file scenario differs from the library's:\n%s", cmp.Diff(want, got))
	}
	a, err := got.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.P[0]-0.00036) > 0.00001 {
		t.Errorf("court wins %v, want about 0.00036", a.P[0])
	}
}

func TestTrailingCommasAndTheirStrings(t *testing.T) {
	in := []byte(`{"a": [1, 2,], "b": "x,]", "c": {"d": 1 , } , }`)
	dropTrailingCommas(in)
	var v map[string]any
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	if v["b"] != "x,]" {
		t.Errorf("a comma inside a string was dropped: %q", v["b"])
	}
	if !strings.Contains(string(in), `[1, 2 ]`) {
		t.Errorf("got %s", in)
	}
}

// TestEndlessFileIsRefusedUnread: a file larger than the limit is refused
// after reading just past the limit, never read whole (/dev/zero has no end).
func TestEndlessFileIsRefusedUnread(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	code, _, errOut := stakes(t, "run", "/dev/zero")
	if code != 2 || !strings.Contains(errOut, "too large") {
		t.Errorf("run /dev/zero: exit %d, %q", code, errOut)
	}
}
