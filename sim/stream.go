package sim

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/stakesrpg/stakes/dice"
)

// The streams. Every chunk (and, in Compare, every trial) draws from its own
// generator whose seed is taken from a SplitMix64 sequence: word j of stream
// k is mix64(base + (4k+j+1)*golden), where mix64 is SplitMix64's output
// function. For Run, base = mix64(Seed) and k is the chunk index; for
// Compare, base = mix64(mix64(Seed)) and k is the trial's index in the whole
// run. PCG is seeded with words 0 and 1; ChaCha8's 32-byte key is words 0..3
// in little-endian order. Streams depend on nothing else, so any chunk can
// be rerun alone (see ChunkSource).

const golden = 0x9e3779b97f4a7c15

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func streamWord(base uint64, k int64, j int) uint64 {
	return mix64(base + uint64(4*k+int64(j)+1)*golden)
}

// stream is one worker's generator, reseeded for each chunk or trial, with
// the worker's Roller and Outcomes. Everything the harness writes per trial
// lives in this one allocation, padded at both ends by two cache lines (a
// core may fetch lines in pairs), so two workers never write to the same
// line (false sharing would serialise them).
type stream struct {
	_      [128]byte
	base   uint64
	pcg    rand.PCG
	chacha *rand.ChaCha8 // only for the chacha8 generator
	src    dice.Source
	roller dice.Roller
	fresh  dice.Roller // a new Roller on src, copied over roller to reset it
	saved  rand.PCG    // the PCG as last seeded, for rewind
	key    [32]byte    // the ChaCha8 key as last seeded, for rewind
	out    [2]Outcome  // Run uses out[0]; Compare uses both
	_      [128]byte
}

func newStream(generator string, base uint64) *stream {
	s := &stream{base: base}
	if generator == ChaCha8 {
		s.chacha = newPaddedChaCha8()
		s.src = s.chacha
	} else {
		s.src = &s.pcg
	}
	fresh, _ := dice.NewRoller(s.src) // src is never nil
	s.fresh = *fresh
	s.reseed(0)
	return s
}

// newPaddedChaCha8 allocates a ChaCha8 that shares no cache line with
// another allocation.
func newPaddedChaCha8() *rand.ChaCha8 {
	p := new(struct {
		_ [64]byte
		c rand.ChaCha8
		_ [64]byte
	})
	return &p.c
}

// reseed points the stream at stream k and gives the worker a fresh roller
// state (a Roller caches pre-drawn faces, which must not leak between
// streams).
func (s *stream) reseed(k int64) {
	if s.chacha == nil {
		s.pcg.Seed(streamWord(s.base, k, 0), streamWord(s.base, k, 1))
		s.saved = s.pcg
	} else {
		s.key = [32]byte{}
		for j := range 4 {
			binary.LittleEndian.PutUint64(s.key[8*j:], streamWord(s.base, k, j))
		}
		s.chacha.Seed(s.key)
	}
	s.roller = s.fresh
}

// rewind restarts the stream last chosen by reseed from its beginning, so
// Compare's second variant sees exactly the draws the first one saw.
func (s *stream) rewind() {
	if s.chacha == nil {
		s.pcg = s.saved
	} else {
		s.chacha.Seed(s.key)
	}
	s.roller = s.fresh
}

// ChunkSource returns the generator that chunk chunk of a Run with this
// seed and generator ("pcg" or "chacha8"; "" means "pcg") draws from, for
// replaying one chunk outside the runner: the runner builds one Roller on
// it with dice.NewRoller and passes that Roller to the chunk's trials in
// order.
func ChunkSource(generator string, seed uint64, chunk int64) (dice.Source, error) {
	switch generator {
	case "", PCG:
		generator = PCG
	case ChaCha8:
	default:
		return nil, fmt.Errorf("%w: unknown generator %s; allowed %q or %q", ErrInvalid, brief(generator), PCG, ChaCha8)
	}
	if chunk < 0 {
		return nil, fmt.Errorf("%w: chunk %d; chunks are numbered from 0", ErrInvalid, chunk)
	}
	s := newStream(generator, mix64(seed))
	s.reseed(chunk)
	return s.src, nil
}
