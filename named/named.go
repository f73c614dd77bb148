// Package named gives the rule packages one way to write their enums as
// names and one way to look up policies by name, so that every package
// reads and writes its saved states and scenario files alike.
//
// An enum is a small integer type with a table of names:
//
//	var positionNames = named.Enum[Position]{"controlled", "risky", "desperate"}
//
//	func (p Position) String() string               { return positionNames.String(p) }
//	func (p Position) MarshalText() ([]byte, error) { return positionNames.Marshal(p) }
//	func (p *Position) UnmarshalText(b []byte) error { return positionNames.Unmarshal(b, p) }
//
// A registry maps policy names to constructors of the package's Policy
// type:
//
//	var policies = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{...}}
//
//	func PolicyByName(name string) (Policy, error) { return policies.ByName(name) }
//	func PolicyNames() []string                     { return policies.Names() }
package named

import (
	"fmt"
	"slices"
	"strings"
)

// Integer is the kind of type an Enum names.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Enum is the table of names of an enum type T: value i reads and writes
// as Enum[i]. Names are unique and non-empty.
type Enum[T Integer] []string

// String returns v's name, or T(v) as a number in parentheses when v has
// none, so that printing a corrupt value never fails.
func (e Enum[T]) String(v T) string {
	if name, ok := e.name(v); ok {
		return name
	}
	return fmt.Sprintf("%T(%d)", v, v)
}

// Marshal returns v's name, or an error when v has none.
func (e Enum[T]) Marshal(v T) ([]byte, error) {
	name, ok := e.name(v)
	if !ok {
		return nil, fmt.Errorf("%T %d has no name; allowed 0..%d", v, v, len(e)-1)
	}
	return []byte(name), nil
}

// Unmarshal sets *v to the value named b, or returns an error naming the
// allowed names and leaves *v as it was.
func (e Enum[T]) Unmarshal(b []byte, v *T) error {
	t, err := e.Parse(string(b))
	if err != nil {
		return err
	}
	*v = t
	return nil
}

// Parse returns the value named s.
func (e Enum[T]) Parse(s string) (T, error) {
	if i := slices.Index(e, s); i >= 0 {
		return T(i), nil
	}
	var zero T
	return zero, fmt.Errorf("unknown %T %q; allowed %s", zero, Clip(s), Allowed(e))
}

// Valid reports whether v has a name.
func (e Enum[T]) Valid(v T) bool {
	_, ok := e.name(v)
	return ok
}

func (e Enum[T]) name(v T) (string, bool) {
	// Compare as unsigned so that a negative value is out of range too.
	if uint64(v) >= uint64(len(e)) {
		return "", false
	}
	return e[int(v)], true
}

// Registry maps names to constructors of values of type P, the package's
// Policy interface.
type Registry[P any] struct {
	// Kind says what is looked up, for error messages ("policy",
	// "director").
	Kind string
	// Make maps each name to a constructor of a fresh value.
	Make map[string]func() P
}

// ByName returns a fresh value of the named kind, or an error that names
// the choices.
func (r Registry[P]) ByName(name string) (P, error) {
	if mk, ok := r.Make[name]; ok {
		return mk(), nil
	}
	var zero P
	return zero, fmt.Errorf("unknown %s %q; allowed %s", r.Kind, Clip(name), Allowed(r.Names()))
}

// Names returns the registered names, sorted.
func (r Registry[P]) Names() []string {
	names := make([]string, 0, len(r.Make))
	for n := range r.Make {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// maxListed is how many names an error message lists before it counts the
// rest, so that a long table never makes a long message.
const maxListed = 8

// Allowed lists names for an error message: quoted, comma-separated, the
// first few and a count of the rest.
func Allowed(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i == maxListed {
			fmt.Fprintf(&b, " and %d more", len(names)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}

// Clip shortens a name quoted back in an error to 40 bytes, so that a
// hostile or mistaken name of megabytes still gives a short message.
func Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
