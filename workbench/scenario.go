package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// Scenario files are JSON with comments: "//" to the end of a line and
// "/* ... */" blocks are allowed outside strings, and so is a trailing comma
// before a closing bracket or brace. The top level holds
//
//	mechanic  (required) edge, challenge, dramadeck, actiontest or contest
//	name      a label for reports
//	seed      the seed (default 1)
//	trials    Monte Carlo trials (default 100000)
//	scenario  the mechanic's scenario as a patch over its built-in one
//
// The scenario patch follows JSON Merge Patch (RFC 7396): an object merges
// key by key into the built-in object, so a key left out keeps the built-in
// value; any other value, a list included, replaces the built-in value
// whole, so a list in the file is the whole list, each element exactly as
// written (a key an element leaves out is that field's zero value, not the
// built-in element's); null resets a key to its zero value. Every key is a
// field of that package's Scenario (see "stakes mechanics NAME").
//
// Decoding is strict: an unknown key or a value of the wrong kind is an
// error that names the key and the line.
type scenarioFile struct {
	Mechanic string          `json:"mechanic"`
	Name     string          `json:"name"`
	Seed     *uint64         `json:"seed"`
	Trials   *int64          `json:"trials"`
	Scenario json.RawMessage `json:"scenario"`
}

// loadedFile is a decoded scenario file.
type loadedFile struct {
	path     string
	name     string
	seed     *uint64
	trials   *int64
	scenario scenario
}

// maxScenarioFile bounds the size of a scenario file.
const maxScenarioFile = 1 << 20

// loadScenarioFile reads and decodes a scenario file. A file that cannot
// be read is a runtime error; one that is too large or does not decode is
// a usage error, as a bad --set is.
func (e *env) loadScenarioFile(path string) (*loadedFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxScenarioFile+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxScenarioFile {
		return nil, usagef("%s: too large for a scenario file (at most 1 MiB)", path)
	}
	lf, err := e.parseScenarioFile(path, raw)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return lf, nil
}

func (e *env) parseScenarioFile(path string, raw []byte) (*loadedFile, error) {
	text, err := stripComments(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dropTrailingCommas(text)
	var f scenarioFile
	if err := strictDecode(text, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Mechanic == "" {
		return nil, fmt.Errorf("%s: missing key \"mechanic\" (one of %s)", path, strings.Join(mechanicNames(e.mechs), ", "))
	}
	m, ok := e.mechanic(f.Mechanic)
	if !ok {
		return nil, fmt.Errorf("%s: key \"mechanic\": unknown mechanic %q (one of %s)", path, f.Mechanic, strings.Join(mechanicNames(e.mechs), ", "))
	}
	sc := m.fresh()
	if len(f.Scenario) > 0 {
		// Decode the patch alone first, where it stands, so that a bad key
		// or value is reported at its line of the file.
		start := bytes.Index(text, f.Scenario)
		if err := strictDecode(f.Scenario, zeroOf(sc)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, shiftLine(err, text, start))
		}
		patch, err := readTree(f.Scenario)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		base, err := treeOf(sc)
		if err != nil {
			return nil, err
		}
		if err := replaceWith(sc, mergePatch(base, patch)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := sc.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Trials != nil && *f.Trials <= 0 {
		return nil, fmt.Errorf("%s: key \"trials\": %d must be positive", path, *f.Trials)
	}
	name := f.Name
	if name == "" {
		name = f.Mechanic
	}
	return &loadedFile{path: path, name: name, seed: f.Seed, trials: f.Trials, scenario: sc}, nil
}

// lineError is a decoding error located at a line of the input.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// strictDecode decodes one JSON value into v, rejecting unknown keys and
// trailing data, and reports the line of the problem.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return &lineError{lineAt(data, int(dec.InputOffset())), "unexpected data after the top-level value"}
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &lineError{lineAt(data, int(syn.Offset)), "syntax error: " + strings.TrimPrefix(syn.Error(), "json: ")}
	case errors.As(err, &typ):
		key := typ.Field
		if key == "" {
			key = "(top level)"
		}
		return &lineError{lineAt(data, int(typ.Offset)), fmt.Sprintf("key %q takes %s, not %s", key, typeWords(typ.Type), valueWords(typ.Value))}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		key := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return &lineError{lineOfKey(data, int(dec.InputOffset()), key), "unknown key " + key}
	}
	// Errors from a field's own UnmarshalText/UnmarshalJSON (a bad pool, an
	// unknown policy name) carry their own words; locate them at the
	// decoder's position.
	return &lineError{lineAt(data, int(dec.InputOffset())), strings.TrimPrefix(err.Error(), "json: ")}
}

// lineAt returns the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// lineOfKey finds the last occurrence of the quoted key before off.
func lineOfKey(data []byte, off int, quoted string) int {
	off = min(max(off, 0), len(data))
	if i := bytes.LastIndex(data[:off], []byte(quoted)); i >= 0 {
		return lineAt(data, i)
	}
	return lineAt(data, off)
}

// shiftLine moves a lineError found in a sub-slice starting at start of
// text to the line it has in text.
func shiftLine(err error, text []byte, start int) error {
	var le *lineError
	if start < 0 || !errors.As(err, &le) {
		return err
	}
	return &lineError{le.line + lineAt(text, start) - 1, le.msg}
}

// stripComments blanks out // and /* */ comments outside strings, keeping
// every newline so line numbers still match the file.
func stripComments(in []byte) ([]byte, error) {
	out := make([]byte, len(in))
	copy(out, in)
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			i = stringEnd(out, i)
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			startLine := lineAt(in, i)
			j := bytes.Index(out[i+2:], []byte("*/"))
			if j < 0 {
				return nil, &lineError{startLine, "a /* comment is never closed"}
			}
			end := i + 2 + j + 2
			for k := i; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i = end - 1
		}
	}
	return out, nil
}

// stringEnd returns the index of the quote that closes the JSON string
// opening at text[open] (or the last index, for a string never closed).
func stringEnd(text []byte, open int) int {
	esc := false
	for i := open + 1; i < len(text); i++ {
		switch c := text[i]; {
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '"':
			return i
		}
	}
	return len(text) - 1
}

// dropTrailingCommas blanks out, in place, each comma outside strings that
// only white space separates from a closing bracket or brace, as a person
// editing a list by hand leaves behind.
func dropTrailingCommas(text []byte) {
	comma := -1 // the last comma outside strings, while only space follows it
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r':
			continue
		case ']', '}':
			if comma >= 0 {
				text[comma] = ' '
			}
		case '"':
			i = stringEnd(text, i)
		}
		comma = -1
		if text[i] == ',' {
			comma = i
		}
	}
}

// applySets applies "key=value" overrides to a scenario. A key is a dotted
// path through the scenario's JSON ("rules.start_edge", "sides.0.pool");
// a value is read as JSON when it parses as JSON (numbers, true, arrays)
// and as a string otherwise. The result is decoded strictly, so an unknown
// key or a bad value is an error naming the key.
func applySets(sc scenario, sets []string) error {
	if len(sets) == 0 {
		return nil
	}
	tree, err := treeOf(sc)
	if err != nil {
		return err
	}
	for _, s := range sets {
		key, val, ok := strings.Cut(s, "=")
		if !ok || key == "" {
			return usagef("--set %q: want key=value, such as rules.start_edge=6", clip(s))
		}
		v, err := readTree([]byte(val))
		if err != nil {
			v = val
		}
		if tree, err = setPath(tree, strings.Split(key, "."), v, key); err != nil {
			return usageError{err.Error()}
		}
	}
	if err := replaceWith(sc, tree); err != nil {
		if key, hint, ok := unknownKey(sc, sets); ok {
			return usagef("--set %s: unknown key%s (stakes mechanics %s lists every key)", clip(key), hint, sc.mechanic())
		}
		var le *lineError
		if errors.As(err, &le) {
			return usagef("--set: %s", le.msg)
		}
		return usagef("--set: %v", err)
	}
	if err := sc.validate(); err != nil {
		return usagef("--set: %v", err)
	}
	return nil
}

// treeOf returns the scenario as a JSON tree (maps, lists, json.Number
// for numbers, so that no integer loses digits).
func treeOf(sc scenario) (any, error) {
	raw, err := json.Marshal(sc.ptr())
	if err != nil {
		return nil, fmt.Errorf("encoding the %s scenario: %w", sc.mechanic(), err)
	}
	return readTree(raw)
}

// readTree decodes one JSON value as a tree, numbers as json.Number.
func readTree(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var t any
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the value")
	}
	return t, nil
}

// zeroOf returns a pointer to a new zero value of the scenario's type.
func zeroOf(sc scenario) any {
	return reflect.New(reflect.TypeOf(sc.ptr()).Elem()).Interface()
}

// replaceWith makes the scenario exactly what tree says: it decodes tree
// strictly into a zero value of the scenario's type and stores that over
// the scenario whole. Decoding into the old value instead would keep
// whatever tree leaves out of a list element or a map.
func replaceWith(sc scenario, tree any) error {
	raw, err := json.Marshal(tree)
	if err != nil {
		return err
	}
	fresh := zeroOf(sc)
	if err := strictDecode(raw, fresh); err != nil {
		return err
	}
	reflect.ValueOf(sc.ptr()).Elem().Set(reflect.ValueOf(fresh).Elem())
	return nil
}

// mergePatch applies an RFC 7396 merge patch to target: objects merge key
// by key, null removes a key, anything else replaces the target whole.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
}

// clip shortens user input quoted back in an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func setPath(node any, path []string, v any, full string) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	switch n := node.(type) {
	case map[string]any:
		// A key that is absent may be an omitted empty field; create it and
		// let the strict decode afterwards reject names the type lacks.
		c, err := setPath(n[path[0]], path[1:], v, full)
		if err != nil {
			return nil, err
		}
		n[path[0]] = c
		return n, nil
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(n) {
			return nil, fmt.Errorf("--set %s: %q is not an index of a list of %d (0..%d)", clip(full), clip(path[0]), len(n), len(n)-1)
		}
		c, err := setPath(n[i], path[1:], v, full)
		if err != nil {
			return nil, err
		}
		n[i] = c
		return n, nil
	case nil:
		// An empty (null) field: build the rest of the path as objects;
		// the strict decode afterwards rejects keys the type lacks.
		c, err := setPath(nil, path[1:], v, full)
		if err != nil {
			return nil, err
		}
		return map[string]any{path[0]: c}, nil
	}
	return nil, fmt.Errorf("--set %s: %q is inside a value that is not an object or list", clip(full), clip(path[0]))
}
