package workbench

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// This file says what went wrong in a designer's words: settings by the
// keys --set takes, kinds of value as a designer names them, and the
// nearest valid key or name when one is mistyped.

// typeWords names the kind of value a setting of type t takes.
func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a name or text"
	case reflect.Slice, reflect.Array:
		return "a list, such as [1,2]"
	case reflect.Map, reflect.Struct:
		return "a group of settings, such as {\"key\": 1}"
	}
	return "another kind of value"
}

// valueWords names the kind of JSON value a designer gave, as
// encoding/json's UnmarshalTypeError reports it.
func valueWords(v string) string {
	switch {
	case v == "string":
		return "text"
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "a group of settings"
	case strings.HasPrefix(v, "number"):
		if num, ok := strings.CutPrefix(v, "number "); ok {
			return "the number " + num
		}
		return "a number"
	}
	return v
}

// settingKeys returns the key of every setting of the scenario, as --set
// takes them ("rules.start_edge", "parties.0.bonus_edge").
func settingKeys(sc scenario) []string {
	var keys []string
	for _, s := range settingsOf(sc.ptr(), nil) {
		keys = append(keys, s.path)
	}
	return keys
}

// unknownKey returns the first key of sets that names no setting of the
// scenario, and a hint: the setting it most likely meant.
func unknownKey(sc scenario, sets []string) (key, hint string, found bool) {
	keys := settingKeys(sc)
	for _, s := range sets {
		k, _, _ := strings.Cut(s, "=")
		if knownKey(k, keys) {
			continue
		}
		return k, keyHint(k, keys), true
	}
	return "", "", false
}

// knownKey reports whether k is a setting or a group of settings (a
// prefix of one), or a key inside a setting that is itself a map.
func knownKey(k string, keys []string) bool {
	for _, p := range keys {
		if p == k || strings.HasPrefix(p, k+".") || strings.HasPrefix(k, p+".") {
			return true
		}
	}
	return false
}

// keyHint suggests the setting a mistyped key k meant: one whose last
// parts are k ("rules.start_edge" for "start_edge") or the last parts of k
// ("deck_seed" for "rules.deck_seed"), else the nearest in spelling.
func keyHint(k string, keys []string) string {
	var ends []string
	for _, p := range keys {
		if strings.HasSuffix(p, "."+k) || strings.HasSuffix(k, "."+p) {
			ends = append(ends, p)
		}
	}
	switch {
	case len(ends) == 1:
		return fmt.Sprintf("; did you mean %s?", ends[0])
	case len(ends) > 1:
		return fmt.Sprintf("; did you mean one of %s?", listSome(ends))
	}
	if near := nearest(k, keys); near != "" {
		return fmt.Sprintf("; did you mean %s?", near)
	}
	return ""
}

// rangeHint says how to write a range for an axis value that looks like
// one written another way ("3-8", "3..", "3 to 8").
func rangeHint(vals string) string {
	for _, sep := range []string{"-", " to ", "...", ":"} {
		lo, hi, ok := strings.Cut(vals, sep)
		if !ok {
			continue
		}
		if _, err := strconv.Atoi(strings.TrimSpace(lo)); err != nil {
			continue
		}
		if _, err := strconv.Atoi(strings.TrimSpace(hi)); err == nil {
			return fmt.Sprintf("; for a range write %s..%s", strings.TrimSpace(lo), strings.TrimSpace(hi))
		}
	}
	return ""
}
