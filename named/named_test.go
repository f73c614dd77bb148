package named

import (
	"strings"
	"testing"
)

type position int8

var positionNames = Enum[position]{"controlled", "risky", "desperate"}

func TestEnumRoundTrip(t *testing.T) {
	for v := range position(3) {
		b, err := positionNames.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back position = 7
		if err := positionNames.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%d -> %q -> %d, %v", v, b, back, err)
		}
		if positionNames.String(v) != string(b) {
			t.Errorf("String(%d) = %q, Marshal %q", v, positionNames.String(v), b)
		}
	}
}

func TestEnumRejects(t *testing.T) {
	for _, v := range []position{-1, 3, 127} {
		if _, err := positionNames.Marshal(v); err == nil {
			t.Errorf("Marshal(%d) accepted", v)
		}
		if positionNames.Valid(v) {
			t.Errorf("Valid(%d)", v)
		}
		if s := positionNames.String(v); !strings.Contains(s, "position(") {
			t.Errorf("String(%d) = %q, want the number in parentheses", v, s)
		}
	}
	v := position(1)
	err := positionNames.Unmarshal([]byte("bogus"), &v)
	if err == nil || v != 1 {
		t.Fatalf("Unmarshal(bogus) = %v, left %d", err, v)
	}
	if !strings.Contains(err.Error(), `"controlled", "risky", "desperate"`) {
		t.Errorf("error %q does not list the names", err)
	}
}

type policy interface{ name() string }
type bold struct{}

func (bold) name() string { return "bold" }

func TestRegistry(t *testing.T) {
	r := Registry[policy]{Kind: "policy", Make: map[string]func() policy{
		"bold": func() policy { return bold{} },
		"meek": func() policy { return bold{} },
	}}
	p, err := r.ByName("bold")
	if err != nil || p.name() != "bold" {
		t.Fatalf("ByName(bold) = %v, %v", p, err)
	}
	if got := strings.Join(r.Names(), ","); got != "bold,meek" {
		t.Errorf("Names = %s", got)
	}
	_, err = r.ByName(strings.Repeat("x", 1000))
	if err == nil || len(err.Error()) > 120 || !strings.Contains(err.Error(), `"bold", "meek"`) {
		t.Errorf("unknown name: %v", err)
	}
}

func TestAllowedCountsTheRest(t *testing.T) {
	names := make([]string, 20)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	got := Allowed(names)
	if !strings.HasSuffix(got, `"h" and 12 more`) {
		t.Errorf("Allowed = %s", got)
	}
}
