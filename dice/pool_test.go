package dice

import (
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePool(t *testing.T) {
	tests := []struct {
		in   string
		dice []Die
		mod  int
		out  string
	}{
		{"3d6", []Die{6, 6, 6}, 0, "3d6"},
		{"d12 d6", []Die{12, 6}, 0, "d12 d6"},
		{"d6 d12", []Die{12, 6}, 0, "d12 d6"},
		{"2d8 d4", []Die{8, 8, 4}, 0, "2d8 d4"},
		{"4d6+2", []Die{6, 6, 6, 6}, 2, "4d6+2"},
		{"d20+5", []Die{20}, 5, "d20+5"},
		{"d20-1", []Die{20}, -1, "d20-1"},
		{"2d6 + d4 - 1", []Die{6, 6, 4}, -1, "2d6 d4-1"},
		{"D6+D6", []Die{6, 6}, 0, "2d6"},
		{" d100 ", []Die{100}, 0, "d100"},
		{"d6 3 -1", []Die{6}, 2, "d6+2"},
		{"d6+0", []Die{6}, 0, "d6"},
		{"1d2", []Die{2}, 0, "d2"},
	}
	for _, tt := range tests {
		p, err := ParsePool(tt.in)
		if err != nil {
			t.Errorf("ParsePool(%q): %v", tt.in, err)
			continue
		}
		if d := cmp.Diff(tt.dice, p.Dice()); d != "" || p.Modifier() != tt.mod {
			t.Errorf("ParsePool(%q) dice (-want +got):\n%s mod %d want %d", tt.in, d, p.Modifier(), tt.mod)
		}
		if got := p.String(); got != tt.out {
			t.Errorf("ParsePool(%q).String() = %q, want %q", tt.in, got, tt.out)
		}
	}
}

func TestParsePoolErrors(t *testing.T) {
	tests := []struct{ in, wantIn string }{
		{"", "empty notation"},
		{"   ", "empty notation"},
		{"d7x", `unexpected "x"`},
		{"d1", "sides must be 2.."},
		{"d0", "sides must be 2.."},
		{"0d6", "count must be at least 1"},
		{"d", "'d' must be followed"},
		{"3d", "'d' must be followed"},
		{"-d6", "dice cannot be subtracted"},
		{"d6-d4", "dice cannot be subtracted"},
		{"5", "no dice"},
		{"+d6", "'+' must join"},
		{"d6+", "must be followed by a term"},
		{"d6++2", "must be followed by a term"},
		{"d6d6", `unexpected "d" after a term`},
		{"99999d6", "more than 10000 dice"},
		{"d2000000", "sides must be 2.."},
		{"d6+9999999", "out of range"},
		{"10000000000d6", "too large"},
		{"x", `unexpected "x"`},
		{strings.Repeat("d6 ", 2000), "too long"},
	}
	for _, tt := range tests {
		_, err := ParsePool(tt.in)
		if err == nil {
			t.Errorf("ParsePool(%q) succeeded", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), tt.wantIn) {
			t.Errorf("ParsePool(%q) error %q does not mention %q", tt.in, err, tt.wantIn)
		}
	}
}

func TestPoolTextAndJSON(t *testing.T) {
	type cfg struct {
		Pool Pool `json:"pool"`
	}
	var c cfg
	if err := json.Unmarshal([]byte(`{"pool":"d12 2d6+1"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Pool.String() != "d12 2d6+1" {
		t.Errorf("decoded %q", c.Pool)
	}
	b, err := json.Marshal(c)
	if err != nil || string(b) != `{"pool":"d12 2d6+1"}` {
		t.Errorf("encoded %s, %v", b, err)
	}
	before := c.Pool
	if err := json.Unmarshal([]byte(`{"pool":"d7x"}`), &c); err == nil {
		t.Error("bad notation decoded")
	}
	if !c.Pool.Equal(before) {
		t.Errorf("failed decode changed the pool to %q", c.Pool)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var p Pool
	fs.Var(&p, "pool", "dice")
	if err := fs.Parse([]string{"-pool", "2d8 d4"}); err != nil || p.String() != "2d8 d4" {
		t.Errorf("flag: %q %v", p, err)
	}
}

func TestPoolConstructors(t *testing.T) {
	if _, err := NewPool(D6, Die(1)); err == nil {
		t.Error("NewPool accepted a d1")
	}
	if _, err := Of(-1, D6); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Of(-1) error %v", err)
	}
	if _, err := Of(MaxDice+1, D6); err == nil {
		t.Error("Of accepted too many dice")
	}
	if _, err := Of(3, Die(-2)); err == nil {
		t.Error("Of accepted a d-2")
	}
	if _, err := NewPool(make([]Die, MaxDice+1)...); err == nil {
		t.Error("NewPool accepted too many dice")
	}
	p, _ := Of(2, D6)
	q, err := p.Add(D12)
	if err != nil || q.String() != "d12 2d6" || p.String() != "2d6" {
		t.Errorf("Add: %q (original %q) %v", q, p, err)
	}
	if _, err := p.Add(Die(0)); err == nil {
		t.Error("Add accepted Gone")
	}
	if _, err := p.WithModifier(MaxModifier + 1); err == nil {
		t.Error("modifier out of range accepted")
	}
	m, _ := q.WithModifier(-2)
	if m.String() != "d12 2d6-2" || m.Sides() != 24 || m.Len() != 3 || m.Die(0) != D12 {
		t.Errorf("pool %q sides %d len %d", m, m.Sides(), m.Len())
	}
	faces := m.Roll(Scripted(7, 3, 2), nil)
	if m.Total(faces) != 10 {
		t.Errorf("Total(%v) = %d", faces, m.Total(faces))
	}
	var zero Pool
	if zero.String() != "" || zero.Len() != 0 {
		t.Errorf("zero pool %q", zero)
	}
}

func FuzzParsePool(f *testing.F) {
	for _, s := range []string{"3d6", "d12 d6", "2d8 d4", "4d6+2", "d20+5", "d6-1", "2d6 + d4 - 1", "d7x", "", "+", "d", "-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePool(s)
		if err != nil {
			return
		}
		q, err := ParsePool(p.String())
		if err != nil {
			t.Fatalf("ParsePool(%q) = %q, which does not parse: %v", s, p, err)
		}
		if !p.Equal(q) {
			t.Fatalf("round trip of %q: %q became %q", s, p, q)
		}
	})
}
