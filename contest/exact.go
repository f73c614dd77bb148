package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TotalDist returns the exact distribution of a pool's total under rules r:
// the sum of the r.Keep highest dice, 1s left out if r.ExcludeOnes. An
// empty pool totals 0; a pool smaller than Keep sums what it has.
func TotalDist(ds []dice.Die, r Rules) (dice.Dist, error) {
	if len(ds) == 0 {
		return dice.Point(0), nil
	}
	for _, d := range ds {
		if err := d.CheckLadder(); err != nil {
			return dice.Dist{}, err
		}
	}
	var excl dice.FaceSet
	if r.ExcludeOnes {
		excl = dice.Faces(1)
	}
	return dice.KeepHighestOf(ds, min(r.Keep, len(ds)), excl)
}

// PBeat returns the exact probability that a basic action succeeds: that
// actor's total (plus aid, a bonus added on top) is strictly greater than
// the stakes rolled on stakes.
func PBeat(actor, stakes []dice.Die, aid int, r Rules) (float64, error) {
	a, err := TotalDist(actor, r)
	if err != nil {
		return 0, err
	}
	s, err := TotalDist(stakes, r)
	if err != nil {
		return 0, err
	}
	if a, err = a.Shift(aid); err != nil {
		return 0, err
	}
	return a.Greater(s), nil
}

// PBeatValue returns the exact probability that actor's total (plus aid)
// beats a stakes value already on the table.
func PBeatValue(actor []dice.Die, stakes, aid int, r Rules) (float64, error) {
	a, err := TotalDist(actor, r)
	if err != nil {
		return 0, err
	}
	if a, err = a.Shift(aid); err != nil {
		return 0, err
	}
	return a.AtLeast(stakes + 1), nil
}

// jointTotalOnes returns P(total = t, ones = j) for a pool under the rules,
// as p[t][j], by a pass over the dice keeping the top Keep faces (at most
// 2 here) and the count of 1s. Keep must be 1 or 2.
func jointTotalOnes(ds []dice.Die, r Rules) [][]float64 {
	top := 0
	for _, d := range ds {
		top = max(top, int(d))
	}
	n := len(ds)
	// st[a][b][j]: highest a, second b (0 = none), j ones.
	w := top + 1
	idx := func(a, b, j int) int { return (a*w+b)*(n+1) + j }
	cur := make([]float64, w*w*(n+1))
	nxt := make([]float64, len(cur))
	cur[idx(0, 0, 0)] = 1
	for _, d := range ds {
		clear(nxt)
		p := 1 / float64(d)
		for a := 0; a <= top; a++ {
			for b := 0; b <= a; b++ {
				for j := 0; j <= n; j++ {
					q := cur[idx(a, b, j)]
					if q == 0 {
						continue
					}
					for f := 1; f <= int(d); f++ {
						if f == 1 && r.ExcludeOnes {
							nxt[idx(a, b, j+1)] += q * p
							continue
						}
						jj := j
						if f == 1 {
							jj++
						}
						na, nb := a, b
						switch {
						case f > a:
							na, nb = f, a
						case f > b:
							nb = f
						}
						nxt[idx(na, nb, jj)] += q * p
					}
				}
			}
		}
		cur, nxt = nxt, cur
	}
	out := make([][]float64, 2*top+1)
	for t := range out {
		out[t] = make([]float64, n+1)
	}
	for a := 0; a <= top; a++ {
		for b := 0; b <= a; b++ {
			for j := 0; j <= n; j++ {
				q := cur[idx(a, b, j)]
				if q == 0 {
					continue
				}
				t := a
				if r.Keep >= 2 {
					t += b
				}
				out[t][j] += q
			}
		}
	}
	return out
}

func noExact(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{markov.ErrNoExact}, args...)...)
}
