package workbench

import (
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// setting is one setting of a scenario, as "stakes mechanics NAME" lists
// it: the path --set takes, the built-in value, and what it means (the
// field's doc comment in its package).
type setting struct {
	path, value, doc string
}

// settingsOf lists every setting of the scenario v points to, omitted-when-
// empty fields included, in declaration order; list elements are listed
// one by one under their index.
// docs holds each field's doc, as sim.Description's Docs does.
func settingsOf(v any, docs map[string]string) []setting {
	w := settingWalk{docs: docs}
	w.walk(reflect.ValueOf(v).Elem(), "", "")
	return w.out
}

// settingWalk gathers the settings of a scenario, explained by docs.
type settingWalk struct {
	docs map[string]string
	out  []setting
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// leaf reports whether values of t are set whole: scalars, maps, lists of
// scalars and anything that writes itself as JSON or text.
func leaf(t reflect.Type) bool {
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(textMarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.Struct:
		return false
	case reflect.Slice, reflect.Array:
		return leaf(t.Elem())
	case reflect.Pointer:
		return leaf(t.Elem())
	}
	return true
}

func (w *settingWalk) walk(v reflect.Value, path, doc string) {
	t := v.Type()
	switch {
	case leaf(t):
		w.out = append(w.out, setting{path, valueText(v), doc})
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			w.out = append(w.out, setting{path, "null", doc})
			return
		}
		w.walk(v.Elem(), path, doc)
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		w.out = append(w.out, setting{path, fmt.Sprintf("(a list of %d; each element below)", v.Len()), doc})
		for i := range v.Len() {
			w.walk(v.Index(i), join(path, fmt.Sprint(i)), "")
		}
	default: // a struct
		for i := range t.NumField() {
			f := t.Field(i)
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			fdoc := designerDoc(w.docs[t.PkgPath()+"."+t.Name()+"."+f.Name], f.Name, name)
			if f.Anonymous && f.Tag.Get("json") == "" && !leaf(f.Type) {
				// encoding/json lifts an embedded struct's fields into this one.
				w.walk(v.Field(i), path, fdoc)
				continue
			}
			w.walk(v.Field(i), join(path, name), fdoc)
		}
	}
}

// jsonName returns the key encoding/json gives field f, and false for a
// field it leaves out.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// valueText is a value as --set reads it back: JSON, cut if long.
func valueText(v reflect.Value) string {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return "?"
	}
	return clip(string(b))
}

// writeSettings prints the settings of mechanic name's built-in scenario.
func writeSettings(w io.Writer, name string, settings []setting) {
	fmt.Fprintf(w, "%s settings: the built-in value of each; change one with --set KEY=VALUE\n", name)
	fmt.Fprintf(w, "or in a scenario file (\"stakes mechanics %s --json\" prints them as a file's scenario).\n\n", name)
	for _, s := range settings {
		fmt.Fprintf(w, "  %s = %s\n", s.path, s.value)
		for _, line := range wrap(s.doc, 84) {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
}

// wrap breaks text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// designerDoc reads a field's doc comment in a designer's words: Go doc
// comments begin with the field's Go name ("StartEdge is how many..."),
// which a designer knows by its key ("start_edge is how many...").
func designerDoc(doc, goName, key string) string {
	if rest, ok := strings.CutPrefix(doc, goName+" "); ok {
		return key + " " + rest
	}
	return doc
}
