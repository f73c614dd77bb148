package dice

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// A saved Roller is the magic "dice:", a version byte, a kind byte and the
// kind's body:
//
//	kindSource:   word (8 bytes, big-endian), left (1 byte), wordSides
//	              (2 bytes, big-endian), then the Source's own MarshalBinary bytes
//	kindScripted: next, len(faces) (uvarints), each face (varint), then the
//	              first problem: 0 none, 1 ran out, 2 an impossible face
//	              followed by the face (varint), its number and the die's
//	              sides (uvarints)
const (
	saveMagic    = "dice:"
	saveVersion  = 1
	kindSource   = 'S'
	kindScripted = 'T'
	saveHeader   = len(saveMagic) + 2
	keptLen      = 8 + 1 + 2
)

// MarshalBinary implements encoding.BinaryMarshaler. The bytes hold
// everything that decides what the Roller rolls next: the kept part of its
// last draw (the faces it will hand out before drawing again) and the
// Source's own saved state, or for a scripted Roller its faces, how many
// are used, and the first problem it met.
//
// It fails, naming the Source's type, when the Source cannot save itself
// (it does not implement encoding.BinaryMarshaler): a Roller that could not
// replay exactly is never saved.
func (r *Roller) MarshalBinary() ([]byte, error) { return r.AppendBinary(nil) }

// AppendBinary implements encoding.BinaryAppender: MarshalBinary's bytes
// appended to b.
func (r *Roller) AppendBinary(b []byte) ([]byte, error) {
	b = append(append(b, saveMagic...), saveVersion)
	if r.script != nil {
		return r.script.appendBinary(append(b, kindScripted)), nil
	}
	if r.src == nil {
		return nil, errors.New("dice: cannot save a Roller with no Source (make it with NewRoller, NewSeeded or Scripted, or restore one)")
	}
	b = append(b, kindSource)
	b = binary.BigEndian.AppendUint64(b, r.word)
	b = append(b, byte(r.left))
	b = binary.BigEndian.AppendUint16(b, uint16(r.wordSides))
	if a, ok := r.src.(encoding.BinaryAppender); ok {
		return a.AppendBinary(b)
	}
	m, ok := r.src.(encoding.BinaryMarshaler)
	if !ok {
		return nil, fmt.Errorf("dice: cannot save a Roller over a %T: the Source does not implement encoding.BinaryMarshaler", r.src)
	}
	sb, err := m.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("dice: saving the %T Source: %w", r.src, err)
	}
	return append(b, sb...), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it restores a
// Roller saved by MarshalBinary, after which r rolls exactly the faces,
// and returns exactly the values of every method, that the saved Roller
// would have given next.
//
// A saved scripted Roller restores into any Roller. For a saved Roller
// over a Source, when r already has a Source that implements
// encoding.BinaryUnmarshaler (a golang.org/x/exp/rand source, a caller's
// own), the saved state is restored into that Source; otherwise r must be
// a zero or scripted Roller, and the Source is rebuilt when it is a
// math/rand/v2 PCG or ChaCha8, recognised by their own saved forms. Bytes
// that are truncated, corrupt, of another version, or that would put the
// kept draw in an impossible state are an error, and r is left as it was.
func (r *Roller) UnmarshalBinary(data []byte) error {
	if len(data) < saveHeader || string(data[:len(saveMagic)]) != saveMagic {
		return fmt.Errorf("dice: not a saved Roller: it must begin with %q", saveMagic)
	}
	if v := data[len(saveMagic)]; v != saveVersion {
		return fmt.Errorf("dice: saved Roller of version %d: this package reads version %d", v, saveVersion)
	}
	body := data[saveHeader:]
	switch kind := data[saveHeader-1]; kind {
	case kindScripted:
		s, err := parseScript(body)
		if err != nil {
			return err
		}
		*r = Roller{script: s}
		return nil
	case kindSource:
		return r.restoreSource(body)
	default:
		return fmt.Errorf("dice: saved Roller of unknown kind %q: %q (a Source) or %q (a script) are allowed", kind, kindSource, kindScripted)
	}
}

// restoreSource restores the kept draw and the Source from the body of a
// kindSource save.
func (r *Roller) restoreSource(body []byte) error {
	if len(body) < keptLen {
		return fmt.Errorf("dice: saved Roller is truncated: %d bytes of kept draw, want %d", len(body), keptLen)
	}
	word := binary.BigEndian.Uint64(body)
	left := int(body[8])
	sides := int(binary.BigEndian.Uint16(body[9:]))
	if err := checkKept(left, sides); err != nil {
		return err
	}
	src, err := r.restoredSource(body[keptLen:])
	if err != nil {
		return err
	}
	pcg, _ := src.(*rand.PCG)
	*r = Roller{src: src, pcg: pcg, word: word, left: left, wordSides: sides}
	return nil
}

// checkKept validates a restored kept draw: either none, or between 1 and
// batchSize[sides] faces of a die of 2..256 sides, as refill leaves it. A
// draw with no faces left may remember any size, as rolling leaves it.
func checkKept(left, sides int) error {
	if sides != 0 && (sides < 2 || sides > 256) {
		return fmt.Errorf("dice: saved Roller keeps a draw for a d%d: the size must be 0 (none) or 2..256", sides)
	}
	if left > batchSize[sides] {
		return fmt.Errorf("dice: saved Roller keeps %d faces of a d%d: at most %d", left, sides, batchSize[sides])
	}
	return nil
}

// restoredSource returns the Source holding the saved state sb: r's own
// Source when it can restore itself, else a new PCG or ChaCha8 recognised
// by its saved form. r's Source is changed only when the state is valid.
func (r *Roller) restoredSource(sb []byte) (Source, error) {
	if u, ok := r.src.(encoding.BinaryUnmarshaler); ok && r.script == nil {
		return r.src, restoreInto(r.src, u, sb)
	}
	if r.src != nil && r.script == nil {
		return nil, fmt.Errorf("dice: cannot restore into a Roller over a %T: the Source does not implement encoding.BinaryUnmarshaler", r.src)
	}
	var src interface {
		Source
		encoding.BinaryUnmarshaler
	}
	switch {
	case bytes.HasPrefix(sb, []byte("pcg:")):
		src = new(rand.PCG)
	case bytes.HasPrefix(sb, []byte("chacha8:")), bytes.HasPrefix(sb, []byte("readbuf:")):
		src = new(rand.ChaCha8)
	default:
		return nil, errors.New("dice: saved Source is not a math/rand/v2 PCG or ChaCha8: restore it into NewRoller(src) with a Source of the saved kind")
	}
	if err := src.UnmarshalBinary(sb); err != nil {
		return nil, fmt.Errorf("dice: restoring the %T Source: %w", src, err)
	}
	return src, nil
}

// restoreInto restores sb into src, putting src back as it was if that
// fails (when src can also save itself), so a refused restore changes
// nothing.
func restoreInto(src Source, u encoding.BinaryUnmarshaler, sb []byte) error {
	var old []byte
	// math/rand/v2's PCG checks the bytes whole before it takes them, so a
	// refused restore leaves it as it was with no copy kept (and restoring
	// a PCG allocates nothing).
	if _, pcg := src.(*rand.PCG); !pcg {
		if m, ok := src.(encoding.BinaryMarshaler); ok {
			old, _ = m.MarshalBinary()
		}
	}
	if err := u.UnmarshalBinary(sb); err != nil {
		if old != nil {
			_ = u.UnmarshalBinary(old)
		}
		return fmt.Errorf("dice: restoring the %T Source: %w", src, err)
	}
	return nil
}

// appendBinary appends the kindScripted body for s.
func (s *script) appendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(s.next))
	b = binary.AppendUvarint(b, uint64(len(s.faces)))
	for _, f := range s.faces {
		b = binary.AppendVarint(b, int64(f))
	}
	switch e := s.err; {
	case e == nil:
		return append(b, 0)
	case e.ranOut:
		return append(b, 1)
	default:
		b = binary.AppendVarint(append(b, 2), int64(e.face))
		b = binary.AppendUvarint(b, uint64(e.number))
		return binary.AppendUvarint(b, uint64(e.sides))
	}
}

// saveReader reads the varints of a saved script, remembering the first
// failure so the parser reads as the format.
type saveReader struct {
	b   []byte
	err error
}

func (d *saveReader) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("dice: saved scripted Roller is truncated or corrupt at the %s", what)
	}
}

// count reads a uvarint that must be a non-negative int no larger than limit.
func (d *saveReader) count(what string, limit int) int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > uint64(limit) {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// face reads a varint that must fit in an int.
func (d *saveReader) face(what string) int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v < math.MinInt || v > math.MaxInt {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// parseScript reads and validates a kindScripted body.
func parseScript(body []byte) (*script, error) {
	d := &saveReader{b: body}
	next := d.count("position", len(body))
	// Every face takes at least one byte, which bounds the allocation.
	n := d.count("number of faces", len(body))
	if d.err != nil {
		return nil, d.err
	}
	faces := make([]int, n)
	for i := range faces {
		faces[i] = d.face("faces")
	}
	s := &script{faces: faces, next: next}
	if len(d.b) == 0 {
		d.fail("first problem")
	} else {
		kind := d.b[0]
		d.b = d.b[1:]
		s.err = d.problem(kind, s)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("dice: saved scripted Roller has %d bytes after its end", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return s, checkScript(s)
}

// problem reads the first problem of kind 0 (none), 1 or 2.
func (d *saveReader) problem(kind byte, s *script) *scriptError {
	switch kind {
	case 0:
		return nil
	case 1:
		return &scriptError{ranOut: true, number: len(s.faces)}
	case 2:
		e := &scriptError{face: d.face("impossible face")}
		e.number = d.count("impossible face's number", len(s.faces))
		e.sides = d.count("impossible face's die", math.MaxInt)
		return e
	}
	d.fail("first problem")
	return nil
}

// checkScript validates a restored script as play could have left it.
func checkScript(s *script) error {
	if s.next > len(s.faces) {
		return fmt.Errorf("dice: saved scripted Roller is at face %d of %d", s.next, len(s.faces))
	}
	e := s.err
	switch {
	case e == nil:
		return nil
	case e.ranOut && s.next != len(s.faces):
		return fmt.Errorf("dice: saved scripted Roller ran out with %d of %d faces used", s.next, len(s.faces))
	case e.ranOut:
		return nil
	case e.number < 1 || e.number > s.next || s.faces[e.number-1] != e.face:
		return fmt.Errorf("dice: saved scripted Roller's impossible face %d is not face number %d of those used", e.face, e.number)
	case e.sides < 2 || e.face >= 1 && e.face <= e.sides:
		return fmt.Errorf("dice: saved scripted Roller's face %d is possible on a d%d", e.face, e.sides)
	}
	return nil
}
