package simtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
)

// chaos is the kit's Chooser: it hands back about half of the answers it
// is given mutated by reflection, or, when wrong is set, every answer as a
// value of a type no mechanic uses.
type chaos struct {
	rng   *rand.Rand
	wrong bool
	// asked counts the answers handed to the Chooser during the step,
	// mutated the ones it changed.
	asked, mutated int
	// last says what the last change was, for reports.
	last string
}

// alien is the type of the wrong-type answers: unexported, so no
// mechanic's policy answers with it.
type alien struct{}

func (c *chaos) choose(view, answer any) any {
	c.asked++
	if c.wrong {
		if c.rng.IntN(2) == 0 {
			c.last = fmt.Sprintf("the %T answer replaced by nil", answer)
			return nil
		}
		c.last = fmt.Sprintf("the %T answer replaced by a simtest.alien{}", answer)
		return alien{}
	}
	if c.rng.IntN(2) == 0 {
		return answer
	}
	mu := mutator{rng: c.rng, lens: lengths(reflect.ValueOf(view), 0, nil)}
	v, what, ok := mu.mutate(reflect.ValueOf(answer), 0)
	if !ok {
		return answer
	}
	c.mutated++
	c.last = fmt.Sprintf("the %T answer %s", answer, what)
	return v.Interface()
}

// maxDepth bounds how deep the mutator and the length finder go into a
// value (a view may hold the whole state, or a cycle through pointers).
const maxDepth = 6

// maxLengths bounds the lengths collected from a view.
const maxLengths = 32

// lengths appends the lengths of the slices, arrays, maps and strings
// found in v, to at most maxLengths of them: bounds a policy's index or
// count answer is likely to be checked against.
func lengths(v reflect.Value, depth int, out []int) []int {
	if depth > maxDepth || len(out) >= maxLengths || !v.IsValid() {
		return out
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		out = append(out, v.Len())
		if v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
			for i := range min(v.Len(), 4) {
				out = lengths(v.Index(i), depth+1, out)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = lengths(v.Field(i), depth+1, out)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = lengths(v.Elem(), depth+1, out)
		}
	}
	return out
}

// mutator changes one part of a value, always on a copy: the answer a
// policy gave may share memory with the game, which a refused step must
// leave as it was.
type mutator struct {
	rng  *rand.Rand
	lens []int // lengths found in the view
}

// mutate returns a changed copy of v, of v's type, and what it changed;
// ok is false when it found nothing in v to change.
func (mu mutator) mutate(v reflect.Value, depth int) (out reflect.Value, what string, ok bool) {
	if depth > maxDepth || !v.IsValid() {
		return v, "", false
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mu.mutateInt(v)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mu.mutateUint(v)
	case reflect.Float32, reflect.Float64:
		f := [...]float64{math.NaN(), -1, math.Inf(1)}[mu.rng.IntN(3)]
		out = reflect.New(v.Type()).Elem()
		out.SetFloat(f)
		return out, fmt.Sprintf("%v changed to %v", v.Float(), f), true
	case reflect.String:
		to := "bogus"
		if v.String() == to {
			to = "bogus!"
		}
		out = reflect.New(v.Type()).Elem()
		out.SetString(to)
		return out, fmt.Sprintf("%q changed to %q", clipString(v.String()), to), true
	case reflect.Bool:
		out = reflect.New(v.Type()).Elem()
		out.SetBool(!v.Bool())
		return out, fmt.Sprintf("%v flipped", v.Bool()), true
	case reflect.Slice:
		return mu.mutateSlice(v, depth)
	case reflect.Array:
		return mu.mutateElem(v, depth)
	case reflect.Struct:
		return mu.mutateStruct(v, depth)
	case reflect.Pointer:
		if v.IsNil() {
			return v, "", false
		}
		to, what, ok := mu.mutate(v.Elem(), depth+1)
		if !ok {
			return v, "", false
		}
		out = reflect.New(v.Type().Elem())
		out.Elem().Set(to)
		return out, "(a copy of what it points to) " + what, true
	case reflect.Interface:
		if v.IsNil() {
			return v, "", false
		}
		to, what, ok := mu.mutate(v.Elem(), depth+1)
		if !ok {
			return v, "", false
		}
		out = reflect.New(v.Type()).Elem()
		out.Set(to)
		return out, what, true
	}
	return v, "", false
}

// mutateInt sets a signed integer to -1, past a length (or itself) by 1 to
// 5, to the largest value of its type or to the smallest.
func (mu mutator) mutateInt(v reflect.Value) (reflect.Value, string, bool) {
	bits := v.Type().Bits()
	hi := int64(1)<<(bits-1) - 1
	lo := -hi - 1
	base := v.Int()
	if len(mu.lens) > 0 && mu.rng.IntN(2) == 0 {
		base = int64(mu.lens[mu.rng.IntN(len(mu.lens))])
	}
	past := base + 1 + mu.rng.Int64N(5)
	if past < base || past > hi { // wrapped, or out of the type's range
		past = hi
	}
	choices := [...]int64{-1, past, hi, lo}
	i := mu.rng.IntN(len(choices))
	for choices[i] == v.Int() { // one of them differs from v
		i = (i + 1) % len(choices)
	}
	out := reflect.New(v.Type()).Elem()
	out.SetInt(choices[i])
	return out, fmt.Sprintf("%d changed to %d", v.Int(), choices[i]), true
}

// mutateUint sets an unsigned integer to the largest value of its type
// (what -1 becomes), past a length (or itself) by 1 to 5, or to half the
// largest.
func (mu mutator) mutateUint(v reflect.Value) (reflect.Value, string, bool) {
	bits := v.Type().Bits()
	hi := uint64(math.MaxUint64) >> (64 - bits)
	base := v.Uint()
	if len(mu.lens) > 0 && mu.rng.IntN(2) == 0 {
		base = uint64(mu.lens[mu.rng.IntN(len(mu.lens))])
	}
	past := base + 1 + mu.rng.Uint64N(5)
	if past < base || past > hi {
		past = hi
	}
	choices := [...]uint64{hi, past, hi/2 + 1}
	i := mu.rng.IntN(len(choices))
	for choices[i] == v.Uint() {
		i = (i + 1) % len(choices)
	}
	out := reflect.New(v.Type()).Elem()
	out.SetUint(choices[i])
	return out, fmt.Sprintf("%d changed to %d", v.Uint(), choices[i]), true
}

// mutateSlice empties a non-empty slice, grows a copy of it by a copy of
// one of its elements, or mutates one element of a copy.
func (mu mutator) mutateSlice(v reflect.Value, depth int) (reflect.Value, string, bool) {
	n := v.Len()
	if n == 0 {
		return v, "", false
	}
	switch mu.rng.IntN(3) {
	case 0:
		return reflect.MakeSlice(v.Type(), 0, 0), fmt.Sprintf("emptied (it had %d elements)", n), true
	case 1:
		j := mu.rng.IntN(n)
		out := reflect.MakeSlice(v.Type(), n, n+1)
		reflect.Copy(out, v)
		return reflect.Append(out, v.Index(j)), fmt.Sprintf("grown to %d elements by a copy of element %d", n+1, j), true
	}
	out := reflect.MakeSlice(v.Type(), n, n)
	reflect.Copy(out, v)
	if to, what, ok := mu.mutateElem(out, depth); ok {
		return to, what, true
	}
	return reflect.MakeSlice(v.Type(), 0, 0), fmt.Sprintf("emptied (it had %d elements)", n), true
}

// mutateElem mutates one element of an array or of a slice it may write
// to (a copy), trying them in a random order until one can be changed.
func (mu mutator) mutateElem(v reflect.Value, depth int) (reflect.Value, string, bool) {
	n := v.Len()
	if n == 0 {
		return v, "", false
	}
	out := v
	if v.Kind() == reflect.Array {
		out = reflect.New(v.Type()).Elem()
		out.Set(v)
	}
	for _, j := range mu.rng.Perm(min(n, 8)) {
		if to, what, ok := mu.mutate(out.Index(j), depth+1); ok {
			out.Index(j).Set(to)
			return out, fmt.Sprintf("element %d: %s", j, what), true
		}
	}
	return v, "", false
}

// mutateStruct mutates one exported field of a copy of a struct, trying
// the fields in a random order until one can be changed.
func (mu mutator) mutateStruct(v reflect.Value, depth int) (reflect.Value, string, bool) {
	t := v.Type()
	for _, i := range mu.rng.Perm(t.NumField()) {
		if !t.Field(i).IsExported() {
			continue
		}
		to, what, ok := mu.mutate(v.Field(i), depth+1)
		if !ok {
			continue
		}
		out := reflect.New(t).Elem()
		out.Set(v)
		out.Field(i).Set(to)
		return out, fmt.Sprintf("field %s: %s", t.Field(i).Name, what), true
	}
	return v, "", false
}
