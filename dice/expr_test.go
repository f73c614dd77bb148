package dice

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Worked examples: scripted faces, the breakdown a bot prints and the
// total, one for every form of the grammar.
func TestExprRollExamples(t *testing.T) {
	tests := []struct {
		expr  string
		faces []int
		want  string
	}{
		{"4d6kh3", []int{6, 5, 3, 1}, "4d6kh3: [6, 5, 3, ~~1~~] = 14"},
		{"4d6k3", []int{6, 5, 3, 1}, "4d6kh3: [6, 5, 3, ~~1~~] = 14"},
		{"2d20kl1", []int{17, 4}, "2d20kl1: [~~17~~, 4] = 4"},
		{"4d6dl1", []int{3, 1, 5, 3}, "4d6dl1: [3, ~~1~~, 5, 3] = 11"},
		// Of two equal dice, the earlier is kept.
		{"4d6dh1", []int{3, 6, 5, 6}, "4d6dh1: [3, 6, 5, ~~6~~] = 14"},
		{"3d6kh2", []int{3, 4, 1}, "3d6kh2: [3, 4, ~~1~~] = 7"},
		{"2d6dl3", []int{3, 4}, "2d6dl3: [~~3~~, ~~4~~] = 0"},
		{"3d6!", []int{6, 6, 2, 3, 1}, "3d6!: [6!, 6!, 2, 3, 1] = 18"},
		{"d6!!+1", []int{6, 4}, "d6!!+1: [10!!] + 1 = 11"},
		{"d6!p", []int{6, 6, 3}, "d6!p: [6!, 5!, 2] = 13"},
		{"2d10!>=9", []int{9, 10, 3, 5}, "2d10!>=9: [9!, 10!, 3, 5] = 27"},
		{"3d6r1", []int{1, 1, 4, 2, 6}, "3d6r1: [1r, 1r, 4, 2, 6] = 12"},
		{"2d6ro<3", []int{1, 2, 5}, "2d6ro<3: [1r, 2, 5] = 7"},
		{"8d10>=7", []int{2, 6, 7, 8, 6, 8, 4, 2}, "8d10>=7: [2, 6, 7*, 8*, 6, 8*, 4, 2] = 3"},
		{"5d10>=8f1", []int{10, 1, 8, 3, 1}, "5d10>=8f1: [10*, 1_, 8*, 3, 1_] = 0"},
		{"3d6>4kh2", []int{6, 5, 1}, "3d6kh2>4: [6*, 5*, ~~1~~] = 2"},
		// "!" counts each roll of an explosion as a success of its own.
		{"3d6! >=5", []int{6, 5, 2, 1}, "3d6! >=5: [6!*, 5*, 2, 1] = 2"},
		{"2d6!! >=8", []int{6, 3, 5}, "2d6!! >=8: [9!!*, 5] = 1"},
		{"4dF", []int{1, 2, 3, 3}, "4dF: [-1, 0, 1, 1] = 1"},
		{"4df kh2", []int{1, 2, 3, 3}, "4dFkh2: [~~-1~~, ~~0~~, 1, 1] = 2"},
		{"d%", []int{73}, "d100: [73] = 73"},
		{"d12 d8 d6 kh2", []int{2, 7, 5}, "d12 d8 d6kh2: [~~2~~, 7, 5] = 12"},
		{"d6 d12 + 2", []int{9, 4}, "d12 d6+2: [9, 4] + 2 = 15"},
		{"(2d6+3)*2", []int{4, 5}, "(2d6+3)*2: ([4, 5] + 3) * 2 = 24"},
		{"d20+5-d4", []int{15, 3}, "d20+5-d4: [15] + 5 - [3] = 17"},
		{"-7/2", nil, "-7/2: -7 / 2 = -3"},
		{"d6*-d4", []int{5, 2}, "d6*-d4: [5] * -[2] = -10"},
		{"3D6R1!KH2", []int{1, 6, 2, 3, 4}, "3d6r1!kh2: [1r, 6!, 2, ~~3~~, 4] = 12"},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.expr)
		if err != nil {
			t.Errorf("%q: %v", tt.expr, err)
			continue
		}
		r := Scripted(tt.faces...)
		var res ExprResult
		if err := e.Roll(r, &res); err != nil {
			t.Fatal(err)
		}
		if got := res.String(); got != tt.want {
			t.Errorf("%q rolled %v:\n got %s\nwant %s", tt.expr, tt.faces, got, tt.want)
		}
		if r.Err() != nil || r.Remaining() != 0 {
			t.Errorf("%q used the script badly: %v, %d left", tt.expr, r.Err(), r.Remaining())
		}
	}
}

// Each record says what happened to its roll, and JSON carries it.
func TestExprResultRecords(t *testing.T) {
	e, err := ParseExpr("2d6!r1kh1")
	if err != nil {
		t.Fatal(err)
	}
	var res ExprResult
	if err := e.Roll(Scripted(1, 6, 2, 3), &res); err != nil {
		t.Fatal(err)
	}
	want := []RolledDie{
		{Term: 0, Die: 0, Sides: 6, Face: 1, Rerolled: true},
		{Term: 0, Die: 0, Sides: 6, Face: 6, Value: 6, Exploded: true},
		{Term: 0, Die: 0, Sides: 6, Face: 2, Value: 2, Extra: true},
		{Term: 0, Die: 1, Sides: 6, Face: 3, Value: 3, Dropped: true},
	}
	if len(res.Dice) != len(want) {
		t.Fatalf("records %+v", res.Dice)
	}
	for i := range want {
		if res.Dice[i] != want[i] {
			t.Errorf("record %d: %+v, want %+v", i, res.Dice[i], want[i])
		}
	}
	b, err := json.Marshal(&res)
	if err != nil {
		t.Fatal(err)
	}
	const wantJSON = `{"expr":"2d6r1!kh1","total":8,"dice":[` +
		`{"term":0,"die":0,"sides":6,"face":1,"value":0,"rerolled":true},` +
		`{"term":0,"die":0,"sides":6,"face":6,"value":6,"exploded":true},` +
		`{"term":0,"die":0,"sides":6,"face":2,"value":2,"extra":true},` +
		`{"term":0,"die":1,"sides":6,"face":3,"value":3,"dropped":true}]}`
	if string(b) != wantJSON {
		t.Errorf("JSON\n got %s\nwant %s", b, wantJSON)
	}
	var back ExprResult
	if err := json.Unmarshal(b, &back); err != nil || back.Total != 8 || len(back.Dice) != 4 || back.Dice[3] != want[3] {
		t.Errorf("JSON does not read back: %+v, %v", back, err)
	}
}

// A roll reuses the result and draws nothing more than its dice.
func TestExprRollAllocatesNothing(t *testing.T) {
	for _, s := range []string{"4d6kh3", "20d6", "8d10>=7", "3d6!", "10d10kh3", "(2d6+3)*2", "4dF", "d12 d8 d6kl2", "5d6r1!!dl1", "6d10! >=8f1", "30d6kh15", "30d6kl12>3"} {
		e, err := ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		r := NewSeeded(1)
		var res ExprResult
		for range 20 {
			_ = e.Roll(r, &res) // grow the buffers
		}
		if n := testing.AllocsPerRun(200, func() { _ = e.Roll(r, &res) }); n != 0 {
			t.Errorf("%s: %v allocations a roll", s, n)
		}
	}
}

func TestExprRollRefuses(t *testing.T) {
	e, _ := ParseExpr("3d6")
	res := ExprResult{Total: 7}
	if err := e.Roll(nil, &res); !errors.Is(err, ErrNoRoller) || res.Total != 7 {
		t.Errorf("nil Roller: %v, total %d", err, res.Total)
	}
	if err := e.Roll(&Roller{}, &res); !errors.Is(err, ErrNoRoller) || res.Total != 7 {
		t.Errorf("zero Roller: %v, total %d", err, res.Total)
	}
	r := Scripted(1, 2, 3)
	if err := e.Roll(r, nil); err == nil || r.Remaining() != 3 {
		t.Errorf("nil result: %v, %d faces left", err, r.Remaining())
	}
	if s := (&ExprResult{}).String(); s != "" {
		t.Errorf("an empty result prints %q", s)
	}
	for _, z := range []*Expr{nil, {}} {
		if err := z.Roll(r, &res); err == nil || r.Remaining() != 3 {
			t.Errorf("an empty expression rolled: %v", err)
		}
		if _, _, err := z.Dist(); err == nil {
			t.Error("an empty expression has a distribution")
		}
	}
}

// The canonical form: what each input prints as, and that it reads back to
// itself.
func TestExprCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4D6 KH3", "4d6kh3"},
		{"4d6k3", "4d6kh3"},
		{"2d20kl", "2d20kl1"},
		{"d%", "d100"},
		{"4df", "4dF"},
		{"d6 d6 d12", "d12 2d6"},
		{"2d6 + d4 - 1", "2d6 d4-1"},
		{"(2d6)+d4", "2d6 d4"},
		{"(2d6+1)+d4", "2d6 d4+1"},
		{"3d6 4", "3d6+4"},
		{"-1+d6", "d6-1"},
		{"1+2", "3"},
		{"d6+0", "d6"},
		{"d8-(d6+d4+1)", "d8-(d6 d4+1)"},
		{"d6-(d4-d2)", "d6-(d4-d2)"},
		{"(d6-d4)-d2", "d6-d4-d2"},
		{"d6/(d4*d2)", "d6/(d4*d2)"},
		{"(d6*d4)/d2", "d6*d4/d2"},
		{"--d6", "--d6"},
		{"-(d6*2)", "-(d6*2)"},
		{"(-d6)*2", "-d6*2"},
		{"d6*(-3)", "d6*-3"},
		{"d6*2-(-3)", "d6*2--3"},
		{"3d6!>=5", "3d6!>=5"},
		{"3d6! >=5", "3d6! >=5"},
		{"3d6!=5", "3d6!5"},
		{"3d6>=5!kh2", "3d6!kh2>=5"},
		{"8d10 >=7 f1", "8d10>=7f1"},
		{"4d6 ro<2", "4d6ro<2"},
		{"4dFr-1", "4dFr-1"},
		{"d12 d8 d6 kh2", "d12 d8 d6kh2"},
		{"2d6!!>5", "2d6!!>5"},
		{"2d6!p<3", "2d6!p<3"},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if e.String() != tt.want {
			t.Errorf("%q prints %q, want %q", tt.in, e, tt.want)
		}
		f, err := ParseExpr(e.String())
		if err != nil || f.String() != e.String() {
			t.Errorf("%q does not read back: %v, %v", e, f, err)
		}
	}
}

// Every pool ParsePool reads means the same as an expression and prints
// as it does today.
func TestExprReadsPools(t *testing.T) {
	for _, s := range []string{"3d6", "d12 d6", "2d8 d4", "4d6+2", "d20+5", "d6-1", "2d6 + d4 - 1",
		"d6 d12 + 2", "3d6 4", "-1 d6", "5 -3 d6", "1d6", "d20\t+1", "D8"} {
		p, err := ParsePool(s)
		if err != nil {
			t.Fatalf("ParsePool(%q): %v", s, err)
		}
		e, err := ParseExpr(s)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", s, err)
			continue
		}
		if e.String() != p.String() {
			t.Errorf("%q: expression prints %q, pool %q", s, e, p)
		}
		got, _, err := e.Dist()
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := SumOf(p.Dice())
		want, _ := sum.Shift(p.Modifier())
		if got.Min != want.Min || len(got.P) != len(want.P) || got.Mean() != want.Mean() {
			t.Errorf("%q: expression %v, pool %v", s, got, want)
		}
	}
}

// Every error names the position and what is allowed.
func TestExprErrors(t *testing.T) {
	deep := strings.Repeat("(", MaxNesting+1) + "d6" + strings.Repeat(")", MaxNesting+1)
	tests := []struct{ in, want string }{
		{"4d6kx3", `"4d6kx3": at 4: unknown modifier "kx": want kh, kl, k, dh, dl, ph, pl, p, !, !!, !p, e, r, rr, ro, ra, mi, ma, min, max, u, uo, mt, >=, >, =, <=, <, f, s, sa, sd, cs, cf, [label]`},
		{"d6x", `at 3: unknown modifier "x"`},
		{"3d", "at 3: 'd' must be followed by the number of sides"},
		{"0d6", "at 1: 0d: the count must be at least 1"},
		{"d1", "at 2: d1: sides must be 2..1000000"},
		{"d1000001", "at 2: a number of sides 1000001 is too large: at most 1000000"},
		{"20000d6", "at 1: a count of dice 20000 is too large: at most 10000"},
		{"5000d6+5001d6", "at 8: more than 10000 dice in one expression"},
		{"4dF d6", "at 5: Fudge dice and numbered dice cannot share a pool"},
		{"4dF!", "at 4: Fudge dice do not explode"},
		{"d6!<=6", "explodes on every face of a d6"},
		{"d6r<7", "the re-roll points cover every face of a d6"},
		{"2d6kh5", "keeping 5 of 2 dice keeps every die: the keep never acts"},
		{"2d6dl0", "dropping 0 dice never acts"},
		{"d6r<2r>=2", "the re-roll points cover every face of a d6"},
		{"d6!!>=8", "the explosion on >=8 never acts"},
		{"d6!>=7", "the explosion on >=7 never acts"},
		{"d6r>6", "r>6 never acts"},
		{"d6ro7", "r7 never acts"},
		{"3d6>=10", "the success count >=10 never acts: the dice read 1..6: to compare the total"},
		{"3d6>=5f7", "the failure count =7 never acts"},
		{"d6mi1", "mi1 never acts"},
		{"d6ma6", "ma6 never acts"},
		{"4d6k>6", "the selector >6 never acts"},
		{"d6r1ro2", "a pool re-rolls one way"},
		{"d6mi2!", "do not combine with explosions"},
		{"p3d6", "unexpected"},
		{"4d6kh1kl1", "at 7: a second keep or drop"},
		{"d6!!!", "at 5: a second explosion"},
		{"d6r1r1r1r1r1r1r1r1r2", "more than 8 re-roll points"},
		{"d6>3>4>5>1>2>0>3>4>2", "more than 8 success points"},
		{"d6>3f1>4", "a success point after the failure count"},
		{"d{1}", "two faces or more"},
		{"d{1,2", "want ',' or '}'"},
		{"2d{1,2} d6", "cannot share a pool with custom dice"},
		{"d{1,2}!", "custom faces do not explode"},
		{"d6f1", "at 3: f counts failures against successes"},
		{"d6>3f1f2", "at 7: a second failure count"},
		{"d6r", "at 4: want a compare point for a re-roll"},
		{"d6 rx", `at 4: unknown modifier "rx"`},
		{"d6>=5fx", `at 6: unknown modifier "fx"`},
		{"(d6", "at 4: want ')' to close the '(' at 1"},
		{"d6)", "at 3: ')' closes no '('"},
		{"d6+", "at 4: the expression ends too soon"},
		{"d6 * * 2", `at 6: unexpected "*"`},
		{"d6 ?", `at 4: unexpected "?": want an operator`},
		{"d6/0", "at 3: the divisor can be 0"},
		{"d6/(d6-1)", "at 3: the divisor can be 0 (its values lie in 0..5)"},
		{deep, "nested too deeply: at most 32"},
		{"d1000000*d1000000*d1000000", "values could reach"},
		{"1000000+1", "the flat modifiers add up to 1000001"},
		{"1234567890", "at 1: a number 1234567890 is too large"},
		{"2*3 4", "at 5: want an operator (+, -, *, /) between terms"},
		{"d12 d8kh1 d6", "at 11: want an operator"},
		{"4d6d1", "at 4: \"d1\" drops the lowest dice only in the Roll20 dialect: write dl1"},
		{strings.Repeat("d6+", 400) + "1", "an expression of 1201 bytes is too long: at most 1000"},
		{"   ", "empty notation"},
	}
	for _, tt := range tests {
		_, err := ParseExpr(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseExpr(%.40q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	e, _ := ParseExpr("3d6!")
	for _, d := range []int{0, MaxDepth + 1} {
		if _, err := e.WithDepth(d); err == nil {
			t.Errorf("depth %d accepted", d)
		}
	}
	if f, err := e.WithDepth(MaxDepth); err != nil || f.Depth() != MaxDepth || e.Depth() != DefaultDepth {
		t.Errorf("WithDepth: %v, %v", f, err)
	}
}

func TestExprText(t *testing.T) {
	var e Expr
	if err := e.Set("4D6 kh3"); err != nil || e.String() != "4d6kh3" || e.Dice() != 4 {
		t.Errorf("Set: %v, %q", err, e.String())
	}
	if err := e.UnmarshalText([]byte("4d6kx3")); err == nil || e.String() != "4d6kh3" {
		t.Errorf("a bad text changed the expression: %v, %q", err, e.String())
	}
	b, err := json.Marshal(map[string]*Expr{"x": &e})
	if err != nil || string(b) != `{"x":"4d6kh3"}` {
		t.Errorf("JSON %s, %v", b, err)
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"4d6kh3", "2d20kl1", "3d6!", "8d10>=7f1", "4dF", "d%", "d12 d8 d6kh2",
		"(2d6+3)*2", "d20/d4", "3d6r1!!dl1", "2d6!p<3 >4", "4dFro-1", "--d6*-2", "2d6 + d4 - 1", "4d6kx3", "d6/(d6-1)",
		"4d6d1", "4d6k3", "4d6k>3", "4d6p<3", "4d6ph1", "3d6>=10", "d20+5>=15", "(d20+5>=15)*2", "2d6+1 tiers 6,9",
		"floor(d20/3)", "ceil(-d20/d4)", "2d8r1r3", "4d6rr1", "d20ra20", "4d6e6", "4d6mi2ma5", "4d6min2", "4d6sdcs>=5cf1",
		"2d6[fire]+d4[cold] # hit", "(2d6+2d8)kh2", "3d6!>4", "d6!!>=8", "d6ro7",
		"{4d6+3d8}k4", "{3d6, 4d4+1}kh1", "{3d20+5}>21", "(1d20, 1d20)kh1", "{d6, d8, 2}dl1>=3f1", "{d6,d6}k>3",
		"4d{0,0,1,2}", "3dF.1", "2dF.2", "5d10>=8>=10", "4d{1,1,2,3}kh2r1", "d{-1,5}mi0",
		"d20%7", "-2^2", "(-2)^d3", "2**3**2", "d6^d4%5",
		"4d6u", "4d6uo", "4d6u=5", "6d6u>4", "3dFu", "4d6mt", "6d6mt3>3", "4dFmt=0", "8d20uo<3", "5d6mt2=6", "2d6u5+d4mt",
		"2d6rao6", "3d4ro1rao>3", "d6rao>=1", "8d20u", "6d10u>7", "20d20u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Every dialect's reading prints a canonical form that reads back
		// the same in the default dialect.
		for _, d := range []Dialect{Roll20, Avrae} {
			e, err := Parser{Dialect: d}.Parse(s)
			if err != nil {
				continue
			}
			back, err := ParseExpr(e.String())
			if err != nil || back.String() != e.String() {
				t.Fatalf("%v reads %q as %q, which reads back as %v, %v", d, s, e, back, err)
			}
		}
		if p, err := ParsePool(s); err == nil && len(s) <= MaxExprLen {
			e, err := ParseExpr(s)
			if err != nil || e.String() != p.String() {
				t.Fatalf("pool %q prints %q; as an expression %v, %v", s, p, e, err)
			}
		}
		e, err := ParseExpr(s)
		if err != nil {
			return
		}
		back, err := ParseExpr(e.String())
		if err != nil || back.String() != e.String() {
			t.Fatalf("%q prints %q, which reads back as %v, %v", s, e, back, err)
		}
		if e.Dice() > 12 || widest(e.root) > 1<<9 {
			return // keep each run quick
		}
		d, _, err := e.Dist()
		if err != nil || len(d.P) > 1<<16 {
			return
		}
		r := NewSeeded(uint64(len(s)))
		var res ExprResult
		for range 5 {
			if err := e.Roll(r, &res); err != nil {
				t.Fatal(err)
			}
			if d.Prob(res.Total) == 0 {
				t.Fatalf("%s rolled %d, outside the exact support %d..%d", e, res.Total, d.Min, d.Max())
			}
		}
	})
}

// widest returns the most outcomes any part of n spans.
func widest(n *node) int {
	w := n.hi - n.lo + 1
	if n.left != nil {
		w = max(w, widest(n.left))
	}
	if n.right != nil {
		w = max(w, widest(n.right))
	}
	if n.term != nil && len(n.term.groups) > 0 {
		w = max(w, int(n.term.groups[0].die)*(DefaultDepth+1))
	}
	for _, k := range n.kids {
		w = max(w, widest(k))
	}
	return w
}

// Keep and drop take the right dice, small pools and large: every kept die
// is at least as good as every dropped one, of equal dice the later drops,
// and the total is the kept dice's sum.
func TestExprKeepChoosesRightDice(t *testing.T) {
	for _, s := range []string{"4d6kh3", "4d6kl3", "5d6kh1", "5d6kl1", "20d6kh10", "20d6kl10", "20d6dh3", "20d6dl15", "30d4kh12", "30d4kl12"} {
		e, err := ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		high := e.terms[0].keepsHighest()
		r := NewSeeded(5)
		var res ExprResult
		for range 200 {
			if err := e.Roll(r, &res); err != nil {
				t.Fatal(err)
			}
			sum, kept := 0, 0
			for i, a := range res.Dice {
				if !a.Dropped {
					sum += a.Value
					kept++
					continue
				}
				for j, b := range res.Dice {
					worse := a.Face > b.Face || a.Face == b.Face && j > i
					if !high {
						worse = a.Face < b.Face || a.Face == b.Face && j > i
					}
					if !b.Dropped && worse {
						t.Fatalf("%s: %v dropped die %d but kept die %d", s, res.String(), i, j)
					}
				}
			}
			if sum != res.Total || kept != e.terms[0].kept() {
				t.Fatalf("%s: %s: kept %d dice summing to %d", s, res.String(), kept, sum)
			}
		}
	}
}

// Plain dice (no re-roll, no explosion) roll from the Roller's batched
// draws; given the same faces, they come out exactly as the general path,
// one die at a time, would have rolled them.
func TestExprPlainDiceMatchGeneralPath(t *testing.T) {
	for i, s := range []string{"4d6kh3", "20d6", "8d10>=7f1", "d12 d8 d6kl2", "4dFkh2", "30d4dl10", "3d20>15kh2", "2d6 d4"} {
		e, err := ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		term := e.terms[0]
		r := NewSeeded(uint64(i))
		var faces []int
		for _, g := range term.groups {
			for range g.n {
				faces = append(faces, r.Roll(int(g.die)))
			}
		}
		var plain ExprResult
		if err := e.Roll(Scripted(faces...), &plain); err != nil {
			t.Fatal(err)
		}
		general := ExprResult{terms: make([]span, len(e.terms))}
		script := Scripted(faces...)
		die := 0
		for _, g := range term.groups {
			for range g.n {
				general.keys = append(general.keys, dieKey{})
				e.rollDie(term, int(g.die), die, term.limit(e.depth), script, &general, &general.keys[len(general.keys)-1])
				die++
			}
		}
		total := term.settle(&general, general.keys, term.kept())
		if total != plain.Total || !slices.Equal(general.Dice, plain.Dice) {
			t.Errorf("%s on %v: plain %d %+v\ngeneral %d %+v", s, faces, plain.Total, plain.Dice, total, general.Dice)
		}
	}
}
