package contest

import (
	"math/bits"

	"github.com/stakesrpg/stakes/dice"
)

// Rolling a pool from tables.
//
// A pool of at most seven small dice is one draw for dice.Roller.RollDice:
// the faces are the mixed-radix digits (the first die the most significant)
// of one value drawn uniformly below the product of the sizes. IntN of that
// product draws the very same value, so an Engine that rolls the same pool
// again and again (a Runner does, trial after trial) keeps tables that map
// it straight to the faces and to what the rules read from them: the pool is
// cut into chunks of up to four dice, each chunk's table holds, for every
// value of its digits, the faces, the two highest faces that are not 1 and
// the count of 1s. A roll is then one IntN, a division and a remainder by
// multiplication for each further chunk, one load a chunk, and the faces
// written out: the same faces RollDice gives from the same Roller state
// (TestTableRollsAsRollDice checks that draw for draw).
//
// A scripted Roller with faces left gives them die by die, so it always
// takes RollDice; so does any pool the tables do not cover (more than seven
// dice, a die outside d2..d16). A pool gets its tables the second time it is
// rolled, so a one-off roll builds nothing.

const (
	fastDice     = 7       // most dice in a pool rolled from tables
	chunkDice    = 4       // most dice in a chunk: a face takes 4 bits of an entry
	chunkEntries = 1 << 13 // most entries in a chunk's table (32 KB)
	tableBudget  = 1 << 20 // entries an Engine holds before it drops its tables
)

// An entry of a chunk table: faces less one, 4 bits each, the first die in
// the low bits; then the highest and second highest face that is not a 1
// (0 for none), the count of 1s, and which die rolled highest, the larger
// on a tie (what rates a Complication Pool: see rate).
const (
	entTop1 = 16 // 5 bits: up to 16
	entTop2 = 21
	entOnes = 26 // 3 bits: up to 4
	entBest = 29 // 2 bits: die 0..3 of the chunk
)

// chunk is a run of a pool's dice that one table covers.
type chunk struct {
	tab []uint32
	n   int // dice
	// rest is the product of the sizes after this chunk; m is
	// (2^64-1)/rest + 1, so that for a value v below 2^32, v/rest is the
	// top word of m*v and v%rest the top word of (m*v mod 2^64)*rest
	// (Lemire, Kaser and Kurz, "Faster remainder by direct computation").
	rest, m uint64
}

// split parts v, a value below the product of this chunk's sizes and
// rest's, into this chunk's table index (v/rest) and what the chunks after
// it read (v%rest).
func (c *chunk) split(v uint64) (q, left uint64) {
	if c.rest <= 1 {
		return v, v
	}
	q, lo := bits.Mul64(c.m, v)
	left, _ = bits.Mul64(lo, c.rest)
	return q, left
}

// layout is how the tables roll one pool (a sequence of dice sizes).
type layout struct {
	key   uint64
	prod  int // the product of the sizes
	n     int // dice
	built bool
	nch   int
	ch    [fastDice]chunk
}

// tables is an Engine's store of layouts and chunk tables.
type tables struct {
	// slot caches the last layout used for each of a few key hashes.
	slot    [1 << slotBits]*layout
	layouts map[uint64]*layout
	chunks  map[uint64][]uint32
	entries int
	// off builds nothing, so every pool goes through RollDice (tests
	// compare the two ways).
	off bool
}

// slotBits sizes tables.slot: 32 slots for the few pools of a contest
// (each side's with and without extras, its gang shrinking). Two pools
// in one slot only cost a map lookup when they take turns.
const slotBits = 5

// slotOf is the slot of a pool key: the top bits of its product with an
// odd constant (MurmurHash3's finalizer multiplier).
func slotOf(key uint64) uint64 { return key * 0xff51afd7ed558ccd >> (64 - slotBits) }

// poolKey packs sizes 2..16 into 4 bits each (size-1, never 0, so the
// length is part of the key). ok is false for a pool the tables do not
// cover.
func poolKey(ds []dice.Die) (key uint64, ok bool) {
	if uint(len(ds)-1) >= fastDice {
		return 0, false
	}
	all := uint(0)
	for _, d := range ds {
		all |= uint(d - 2)
		key = key<<4 | uint64(d-1)
	}
	// Every size less two is 0..14 exactly when their or is.
	return key, all <= 14
}

// layoutOf returns the built layout for ds, or nil when ds is to be
// rolled by RollDice.
func (e *Engine) layoutOf(r *dice.Roller, ds []dice.Die) *layout {
	if r.Remaining() != 0 {
		return nil
	}
	key, ok := poolKey(ds)
	if !ok {
		return nil
	}
	if l := e.tabs.slot[slotOf(key)]; l != nil && l.key == key {
		return l
	}
	return e.findLayout(key, ds)
}

// findLayout looks the layout of ds (key) up, building it the second time
// it is asked for.
func (e *Engine) findLayout(key uint64, ds []dice.Die) *layout {
	t := &e.tabs
	if t.off {
		return nil
	}
	if t.layouts == nil {
		t.layouts = make(map[uint64]*layout)
		t.chunks = make(map[uint64][]uint32)
	}
	l := t.layouts[key]
	if l == nil {
		t.layouts[key] = &layout{key: key}
		return nil
	}
	if !l.built {
		if t.entries > tableBudget {
			// Too many different pools: start again rather than grow.
			*t = tables{layouts: map[uint64]*layout{}, chunks: map[uint64][]uint32{}}
			t.layouts[key] = l
		}
		t.build(l, ds)
	}
	t.slot[slotOf(key)] = l
	return l
}

// build cuts ds into chunks and finds or builds their tables.
func (t *tables) build(l *layout, ds []dice.Die) {
	l.n, l.prod, l.nch = len(ds), 1, 0
	for i := 0; i < len(ds); {
		j, p := i, 1
		for j < len(ds) && j-i < chunkDice && p*int(ds[j]) <= chunkEntries {
			p *= int(ds[j])
			j++
		}
		ck, _ := poolKey(ds[i:j])
		tab, ok := t.chunks[ck]
		if !ok {
			tab = chunkTable(ds[i:j], p)
			t.chunks[ck] = tab
			t.entries += len(tab)
		}
		l.ch[l.nch] = chunk{tab: tab, n: j - i}
		l.nch++
		l.prod *= p
		i = j
	}
	rest := uint64(1)
	for k := l.nch - 1; k >= 0; k-- {
		c := &l.ch[k]
		c.rest = rest
		if rest > 1 {
			c.m = ^uint64(0)/rest + 1
		}
		rest *= uint64(len(c.tab))
	}
	l.built = true
}

// chunkTable lists the entries of the dice ds (product p) in the order of
// their mixed-radix value, the first die the most significant.
func chunkTable(ds []dice.Die, p int) []uint32 {
	tab := make([]uint32, p)
	var f [chunkDice]int // faces less one
	for v := range tab {
		var faces uint32
		a, b, ones, best := 0, 0, 0, 0
		for i := range ds {
			faces |= uint32(f[i]) << (4 * i)
			x := f[i] + 1
			switch {
			case x == 1:
				ones++
			case x > a:
				a, b = x, a
			case x > b:
				b = x
			}
			if f[i] > f[best] || f[i] == f[best] && ds[i] > ds[best] {
				best = i
			}
		}
		tab[v] = faces | uint32(a)<<entTop1 | uint32(b)<<entTop2 | uint32(ones)<<entOnes | uint32(best)<<entBest
		// Count on: the last die fastest.
		for i := len(ds) - 1; i >= 0; i-- {
			if f[i]++; f[i] < int(ds[i]) {
				break
			}
			f[i] = 0
		}
	}
	return tab
}

// roll rolls the layout's pool into faces[:l.n] (faces has room) and
// returns the sum of the two highest faces that are not 1, and the number
// of 1s.
func (l *layout) roll(r *dice.Roller, faces []int) (top2, ones int) {
	v := uint64(r.IntN(l.prod))
	faces = faces[:l.n]
	if l.nch == 1 {
		ent := l.ch[0].tab[v]
		unpack(ent, faces)
		return entTotal(ent), entOnesOf(ent)
	}
	var a, b, n uint32
	for k := range l.nch {
		c := &l.ch[k]
		var q uint64
		q, v = c.split(v)
		ent := c.tab[q]
		unpack(ent, faces[:c.n])
		faces = faces[c.n:]
		ca, cb := ent>>entTop1&31, ent>>entTop2&31
		b = max(b, cb, min(a, ca))
		a = max(a, ca)
		n += ent >> entOnes & 7
	}
	return int(a + b), int(n)
}

// rate rolls the layout's pool ds as a Complication Pool and returns the
// size of the die that rolls highest, the larger size on a tie: the same
// draw, faces and answer as RollDice and ratePool's reading of them.
func (l *layout) rate(r *dice.Roller, ds []dice.Die) dice.Die {
	v := uint64(r.IntN(l.prod))
	if l.nch == 1 {
		return ds[l.ch[0].tab[v]>>entBest&3]
	}
	best, size, at := uint32(0), dice.Gone, 0
	for k := range l.nch {
		c := &l.ch[k]
		var q uint64
		q, v = c.split(v)
		ent := c.tab[q]
		i := ent >> entBest & 3
		f, d := ent>>(4*i)&15+1, ds[at+int(i)]
		if f > best || f == best && d > size {
			best, size = f, d
		}
		at += c.n
	}
	return size
}

// rollRead rolls ds into faces (grown as needed) and reads them as read
// does: the total the rules make and the number of 1s.
func (e *Engine) rollRead(r *dice.Roller, ds []dice.Die, faces []int) ([]int, int, int) {
	if l := e.layoutOf(r, ds); l != nil {
		if cap(faces) < l.n {
			faces = make([]int, l.n, l.n+8)
		}
		faces = faces[:l.n]
		top2, ones := l.roll(r, faces)
		if e.Rules.Keep != 2 || !e.Rules.ExcludeOnes {
			return faces, e.total(faces), ones
		}
		return faces, top2, ones
	}
	faces = r.RollDice(ds, faces)
	total, ones := e.read(faces)
	return faces, total, ones
}

// unpack writes the faces of entry ent into out (1..4 of them).
func unpack(ent uint32, out []int) {
	switch len(out) {
	case 4:
		out[3] = int(ent>>12&15) + 1
		fallthrough
	case 3:
		out[2] = int(ent>>8&15) + 1
		fallthrough
	case 2:
		out[1] = int(ent>>4&15) + 1
		fallthrough
	case 1:
		out[0] = int(ent&15) + 1
	}
}

// entTotal is the shipped reading of a one-chunk entry: its two highest
// faces that are not 1, summed.
func entTotal(ent uint32) int { return int(ent>>entTop1&31 + ent>>entTop2&31) }

// entOnesOf is the number of 1s in an entry.
func entOnesOf(ent uint32) int { return int(ent >> entOnes & 7) }

// absMargin is |d| without a branch: which way a roll went is down to the
// dice, which the processor cannot foresee.
func absMargin(d int) int {
	neg := d >> 63
	return (d ^ neg) - neg
}
