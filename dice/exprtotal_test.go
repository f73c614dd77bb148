package dice

import "testing"

// Total takes the same dice from the same draws as Roll: from equal
// Rollers, every form of the table and every sampled expression gives
// Roll's total, roll after roll, and leaves the Rollers equal.
func TestTotalIsRollsTotal(t *testing.T) {
	texts := []string{"4d6kh3", "20d6", "8d10>=7", "3d6!", "10d10kh3", "30d6", "100d6>=5", "100d6kh3", "70d6!kh2",
		"d1000 3d300kl2", "d12 d8 d6kh2", "4d6r1", "4d6r<3kh3", "3d8ro1", "3d6r1!kh2", "6d6!kh3", "4d6!!dl1",
		"4d10! >=8kh2", "6d10! >=8f1kl3", "12d10! >=8kh6", "d10 2d6r1! >=5dl1", "4dF", "4dF>=1f-1", "4dFkh2",
		"(2d6+3)*2", "d20/d4", "-d20/3", "d20+5>=15", "2d6+1 tiers 6,9", "floor(d20/3)", "4d6mi2ma5", "4d6k>3",
		"4d6p<3", "2d8r1r3", "d20ra20", "(2d6+2d8)kh2", "200d4!kh100", "50d3dl25", "25d6 d8",
		"2d6!!", "d12 d8 2d4!", "3d2!", "2d6!>=5", "2d6!p"}
	for _, f := range forms {
		texts = append(texts, f.canon)
	}
	for i, s := range texts {
		e, err := ParseExpr(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		a, b := NewSeeded(uint64(i)), NewSeeded(uint64(i))
		var res ExprResult
		for n := range 200 {
			if err := e.Roll(a, &res); err != nil {
				t.Fatal(err)
			}
			got, err := e.Total(b)
			if err != nil || got != res.Total {
				t.Fatalf("%s, roll %d: Total %d, %v; Roll %d", s, n, got, err, res.Total)
			}
		}
		if a.Roll(1000) != b.Roll(1000) {
			t.Errorf("%s: the Rollers parted", s)
		}
	}
	// A scripted Roller too, and the refusals.
	e, _ := ParseExpr("4d6kh3")
	if v, err := e.Total(Scripted(1, 6, 5, 2)); v != 13 || err != nil {
		t.Errorf("scripted 4d6kh3 = %d, %v", v, err)
	}
	if _, err := e.Total(nil); err != ErrNoRoller {
		t.Errorf("nil Roller: %v", err)
	}
	if _, err := (&Expr{}).Total(NewSeeded(1)); err == nil {
		t.Error("an empty Expr rolled")
	}
}

// Total and a cached parse and roll of a bot's expression allocate
// nothing, a large keep included once its buffer is lent.
func TestTotalAllocatesNothing(t *testing.T) {
	r := NewSeeded(1)
	var c Cache
	for _, s := range []string{"4d6kh3", "d20+5>=15", "8d10>=7f1", "3d6!", "200d4!kh100", "2d6[fire]+d4[cold] # hit"} {
		if _, err := c.Roll(r, s); err != nil {
			t.Fatal(err)
		}
		if raceEnabled && s == "200d4!kh100" {
			continue // a pooled buffer, which the race detector drops now and then
		}
		if n := testing.AllocsPerRun(50, func() { _, _ = c.Roll(r, s) }); n != 0 {
			t.Errorf("%s: %v allocations a roll", s, n)
		}
	}
}

// The cache parses in its dialect, keeps what it parsed, refuses what
// does not parse, and forgets everything when full.
func TestCache(t *testing.T) {
	c := Cache{Parser: Parser{Dialect: Roll20}}
	a, err := c.Parse("4d6d1")
	if err != nil || a.String() != "4d6dl1" {
		t.Fatalf("roll20 4d6d1: %v, %v", a, err)
	}
	if b, _ := c.Parse("4d6d1"); b != a {
		t.Error("parsed again")
	}
	if _, err := c.Roll(NewSeeded(1), "4d6kx"); err == nil {
		t.Error("4d6kx rolled")
	}
	for i := range CacheSize {
		if _, err := c.Parse("d6+" + itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := c.Parse("4d6d1"); b == a || len(c.m) > CacheSize {
		t.Errorf("a full cache kept %d", len(c.m))
	}
}

// A Cache serves many goroutines at once (run with -race).
func TestCacheConcurrent(t *testing.T) {
	var c Cache
	texts := []string{"4d6kh3", "d20+5>=15", "8d10>=7", "2d6+1 tiers 6,9"}
	done := make(chan error)
	for g := range 4 {
		go func() {
			r := NewSeeded(uint64(g))
			for i := range 200 {
				if _, err := c.Roll(r, texts[(g+i)%len(texts)]); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
