package dice

import "math"

// lowFaces returns e when the faces exclude holds among 1..top are
// exactly 1..e (none, the 1s, the 1s and 2s, ...), and ok false when it
// holds a face above one it leaves out.
func lowFaces(exclude FaceSet, top int) (e int, ok bool) {
	for e < top && exclude.Has(e+1) {
		e++
	}
	for f := e + 2; f <= min(top, 128); f++ {
		if exclude.Has(f) {
			return 0, false
		}
	}
	return e, true
}

// keepTop returns the distribution of the sum of the k highest faces of
// the dice (the largest a d(top), counted by size into counts when top <
// len(counts)), faces 1..e not counted (a die showing one adds nothing and
// is never kept before a counted face), 1 <= k <= len(ds).
//
// The sweep visits faces v from the top down to e+1, and its state is
// only (j, s): j < k dice have shown a face above v, with sum s. The
// N(v) dice of d(v) or larger are the only ones that can show v; of
// them, those not among the j are each, given that they show v or less,
// uniform on 1..v whatever their size, and independent. So the number
// m of them showing v is binomial, Binomial(N(v)-j, 1/v): if j+m >= k
// the reading is complete, s plus (k-j) v; otherwise the state becomes
// (j+m, s+m v). States left after face e+1 have fewer than k counted
// dice, all their other dice excluded, and read s. Dice of one size or
// many share all the work: 100d6 keep 3 holds 3 rows a face, twenty
// mixed d4..d12 keep 3 the same, and the cost is about
// (top-e) x k x (k-1) top x k multiply-adds, with (top-e) x k
// binomial heads.
//
// One table serves every face: the rows are updated in place from j =
// k-1 down, since a row only ever receives from rows below it, and each
// row's sums lie in j (v+1) .. j top while its dice are above v.
func keepTop(ds []Die, counts []int, top, k, e int) (Dist, error) {
	width := (k-1)*top + 1 // a row's sums: 0..(k-1) top
	cells := mulCapped(MaxCells, k, width)
	work := mulCapped(MaxWork, top-e, cells, k)
	if _, err := keepSums("highest", k, top); err != nil {
		return Dist{}, err
	}
	if err := checkKeep("highest", len(ds), k, top, cells, work); err != nil {
		return Dist{}, err
	}
	// above[v] counts the dice of exactly v sides, as countDice left it
	// when they all fit, and turns into N(v) as the sweep goes down.
	above := counts
	if top >= len(counts) {
		above = make([]int, top+1)
		for _, d := range ds {
			above[d]++
		}
	}
	buf := make([]float64, cells+k*top+1+k*k+k)
	t := topTable{
		rows: buf[:cells], final: buf[cells : cells+k*top+1],
		heads: buf[cells+k*top+1 : cells+k*top+1+k*k], tails: buf[cells+k*top+1+k*k:],
		k: k, top: top, width: width,
	}
	t.rows[0] = 1
	n := 0 // N(v)
	for v := top; v > e; v-- {
		n += above[v]
		t.face(v, n)
	}
	for j := range k {
		for s, q := range t.row(j) {
			t.final[s] += q
		}
	}
	return Dist{Min: 0, P: t.final}.trim(), nil
}

// topTable is keepTop's table: rows[j*width+s] is the chance that j
// dice, fewer than k, have shown faces above the current one, summing to
// s; final collects the readings complete.
type topTable struct {
	rows, final, heads, tails []float64
	k, top, width             int
}

// row returns row j's sums, 0..j top.
func (t *topTable) row(j int) []float64 { return t.rows[j*t.width : j*t.width+j*t.top+1] }

// face moves the table past face v, n dice being d(v) or larger.
func (t *topTable) face(v, n int) {
	k := t.k
	// heads[i*k+m]: P(m of row i's dice show v), m < k-i; tails[i]:
	// P(k-i or more do). Complete readings first, from every row as it
	// stood; a row's sums lie in i (v+1) .. i top.
	headsOf(n, k, v, t.heads, t.tails)
	for i := range k {
		if t.tails[i] > 0 {
			row := t.row(i)
			lo := min(i*(v+1), len(row))
			addShifted(t.final, row[lo:], lo+(k-i)*v, t.tails[i])
		}
	}
	// Then the rows from the top down: row j keeps its share with no die
	// on v and takes m dice on v from row j-m, still as it stood.
	for j := k - 1; j >= 0; j-- {
		row, h := t.row(j), t.heads[j*k]
		for s := j * (v + 1); s < len(row); s++ {
			row[s] *= h
		}
		for m := 1; m <= j; m++ {
			i := j - m
			if h := t.heads[i*k+m]; h != 0 {
				from := t.row(i)
				lo := min(i*(v+1), len(from))
				addShifted(row, from[lo:], lo+m*v, h)
			}
		}
	}
}

// headsOf sets heads[i*k+m] to P(Binomial(n-i, 1/v) = m) for m < k-i,
// and tails[i] to P(Binomial(n-i, 1/v) >= k-i), for every row i < k
// (zero where n-i < 0). The heads start from q^(n-i), q = 1-1/v, one
// power a face: q^(n-i) = q^(n-i0) q^(i0-i) for the largest row i0.
func headsOf(n, k, v int, heads, tails []float64) {
	for i := range heads {
		heads[i] = 0
	}
	for i := range tails {
		tails[i] = 0
	}
	if v == 1 {
		// Every die left shows 1: with at least k dice in all, every row
		// completes.
		for i := range min(k, n+1) {
			tails[i] = 1
		}
		return
	}
	p := 1 / float64(v)
	q := 1 - p
	i0 := min(k-1, n)
	qr := math.Pow(q, float64(n-i0))
	for i := i0; i >= 0; i-- {
		r, head := n-i, heads[i*k:i*k+k-i]
		pm := qr
		for m := range min(len(head), r+1) {
			head[m] = pm
			pm *= float64(r-m) / float64(m+1) * p / q
		}
		tails[i] = binomialRest(r, p, k-i, head)
		qr *= q
	}
}
