package dice

import "fmt"

// SumLowest returns the sum of the k lowest faces that are not in exclude,
// the mirror of SumHighest: if fewer than k faces remain it sums those.
// k <= 0 gives 0, and a face below 1 (no die shows one) never counts. It
// allocates nothing.
func SumLowest(faces []int, k int, exclude FaceSet) int {
	// Walk distinct values from the bottom, taking as many of each as are
	// still wanted.
	sum, want := 0, k
	floor := 0 // every value at or below it is taken
	for want > 0 {
		v, c := 0, 0
		for _, f := range faces {
			if f <= floor || exclude.Has(f) {
				continue
			}
			if c == 0 || f < v {
				v, c = f, 1
			} else if f == v {
				c++
			}
		}
		if c == 0 {
			break
		}
		t := min(c, want)
		sum += t * v
		want -= t
		floor = v
	}
	return sum
}

// KeepLowestOf returns the exact distribution of the sum of the k lowest
// faces among the dice, with faces in exclude not counted; if fewer than k
// dice show counted faces, those are summed. It is the mirror of
// KeepHighestOf (roll with disadvantage: the lowest of 2d20), and k must
// be between 1 and the number of dice.
//
// It never enumerates rolls. It sweeps faces from the top, as
// KeepHighestOf does: once it passes a size, each die of that size is
// counted with probability (its counted faces)/(its sides) and is then
// uniform over its counted faces, so the number showing the current face
// is binomial. A die showing face v is among the k lowest when fewer than
// k counted dice show less, so the state is (counted dice not yet placed
// whose size has been passed, counted dice of sizes not yet passed, sum of
// the kept faces). The cost grows as the cube of the number of dice.
// Where it is cheaper it counts patterns instead, from the lowest face up,
// as KeepHighestOf does from the top: the state is how many dice of each
// size are kept so far and their sum, so 100d6 keep lowest 3 takes
// microseconds and 1000d6 keep lowest 3 fits. Past MaxCells or MaxWork it
// returns an error wrapping ErrTooLarge.
func KeepLowestOf(ds []Die, k int, exclude FaceSet) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	if k < 1 || k > len(ds) {
		return Dist{}, fmt.Errorf("dice: keep lowest %d of %d dice: k must be 1..%d", k, len(ds), len(ds))
	}
	gs := groups(ds)
	top, n := int(gs[0].die), len(ds)
	sums, err := keepSums("lowest", k, top)
	if err != nil {
		return Dist{}, err
	}
	// The table is (placed-to-come r, waiting w, sum); each face moves a
	// cell with r dice to r+1 others, and a group joining moves each cell
	// to at most its size+1 others.
	cells := mulCapped(MaxCells, n+1, n+1, sums)
	work := mulCapped(MaxWork, cells, top, n+2)
	if d, ok, err := keepCounted(gs, k, exclude, false, work); ok {
		return d, err
	}
	if err := checkKeep("lowest", n, k, top, cells, work); err != nil {
		return Dist{}, err
	}
	l := newLowest(gs, n, k, sums, exclude)
	return l.run(), nil
}

// lowest is the working state of KeepLowestOf.
type lowest struct {
	gs       []group
	n, k     int
	sums     int
	counted  []int  // counted[v]: counted faces in 1..v
	waiting  []Dist // waiting[i]: counted dice in groups i.. (Poisson-binomial)
	joins    []Dist // joins[i]: counted dice of group i (binomial)
	cur, nxt []float64
}

func newLowest(gs []group, n, k, sums int, exclude FaceSet) *lowest {
	top := int(gs[0].die)
	l := &lowest{gs: gs, n: n, k: k, sums: sums, counted: make([]int, top+1)}
	for v := 1; v <= top; v++ {
		l.counted[v] = l.counted[v-1]
		if !exclude.Has(v) {
			l.counted[v]++
		}
	}
	l.joins = make([]Dist, len(gs))
	l.waiting = make([]Dist, len(gs)+1)
	l.waiting[len(gs)] = Point(0)
	for i := len(gs) - 1; i >= 0; i-- {
		s := int(gs[i].die)
		l.joins[i] = binomialDist(gs[i].n, float64(l.counted[s])/float64(s))
		// Sums of at most n counted dice: within every bound.
		l.waiting[i], _ = l.waiting[i+1].Add(l.joins[i])
	}
	l.cur = make([]float64, (n+1)*(n+1)*sums)
	l.nxt = make([]float64, len(l.cur))
	return l
}

func (l *lowest) idx(r, w, s int) int { return (r*(l.n+1)+w)*l.sums + s }

// run sweeps the faces from the top and returns the distribution of the
// kept sum.
func (l *lowest) run() Dist {
	w0 := l.waiting[0]
	for i, p := range w0.P {
		l.cur[l.idx(0, w0.Min+i, 0)] = p
	}
	gi := 0
	for v := int(l.gs[0].die); v >= 1; v-- {
		for gi < len(l.gs) && int(l.gs[gi].die) == v {
			l.join(gi)
			gi++
		}
		if l.counted[v] > l.counted[v-1] {
			l.place(v, l.counted[v])
		}
	}
	final := make([]float64, l.sums)
	for i, q := range l.cur {
		final[i%l.sums] += q
	}
	return Dist{Min: 0, P: final}.trim()
}

// join moves the counted dice of group gi from waiting to placed-to-come:
// given w waiting, a of them belong to the group with probability
// P(group has a) P(the rest have w-a) / P(w).
func (l *lowest) join(gi int) {
	clear(l.nxt)
	all, rest, own := l.waiting[gi], l.waiting[gi+1], l.joins[gi]
	for r := 0; r <= l.n; r++ {
		for w := 0; w+r <= l.n; w++ {
			pw := all.Prob(w)
			if pw == 0 {
				continue
			}
			for s := 0; s < l.sums; s++ {
				q := l.cur[l.idx(r, w, s)]
				if q == 0 {
					continue
				}
				for a := own.Min; a <= min(own.Max(), w); a++ {
					if pa := own.Prob(a) * rest.Prob(w-a); pa != 0 {
						l.nxt[l.idx(r+a, w-a, s)] += q * pa / pw
					}
				}
			}
		}
	}
	l.cur, l.nxt = l.nxt, l.cur
}

// place settles counted face v, with c counted faces at or below it: of r
// dice still to place, m ~ Binomial(r, 1/c) show v, and of those the ones
// with fewer than k counted dice below them (r-m+w) are kept.
func (l *lowest) place(v, c int) {
	clear(l.nxt)
	for r := 0; r <= l.n; r++ {
		b := binomialDist(r, 1/float64(c))
		for w := 0; w+r <= l.n; w++ {
			base := l.idx(r, w, 0)
			for s := 0; s < l.sums; s++ {
				q := l.cur[base+s]
				if q == 0 {
					continue
				}
				for i, pm := range b.P {
					m := b.Min + i
					kept := min(max(l.k-(r-m+w), 0), m)
					l.nxt[l.idx(r-m, w, s+kept*v)] += q * pm
				}
			}
		}
	}
	l.cur, l.nxt = l.nxt, l.cur
}
