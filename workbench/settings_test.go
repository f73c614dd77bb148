package workbench

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMechanicsListsEverySetting: every key of every built-in scenario,
// fields left out of its JSON when empty included, is listed with its
// built-in value, and the listing explains most of them.
func TestMechanicsListsEverySetting(t *testing.T) {
	for _, name := range reportOrder {
		code, out, errOut := stakes(t, "mechanics", name)
		if code != 0 {
			t.Fatalf("mechanics %s: exit %d %s", name, code, errOut)
		}
		m := termsMechanic(name)
		settings := settingsOf(m.Scenario(), m.Describe().Docs)
		explained := 0
		for _, s := range settings {
			if !strings.Contains(out, "  "+s.path+" = ") {
				t.Errorf("mechanics %s does not list %s", name, s.path)
			}
			if s.doc != "" {
				explained++
			}
		}
		// Every key the JSON has is a listed path.
		_, js, _ := stakes(t, "mechanics", name, "--json")
		var tree any
		if err := json.Unmarshal([]byte(js), &tree); err != nil {
			t.Fatal(err)
		}
		for _, p := range leafPaths(tree, "") {
			if !listed(out, p) {
				t.Errorf("mechanics %s: JSON key %s is not listed", name, p)
			}
		}
		if explained == 0 {
			t.Errorf("mechanics %s explains none of its %d settings", name, len(settings))
		}
	}
	_, out, _ := stakes(t, "mechanics", "actiontest")
	for _, k := range []string{"pool", "spend"} {
		if !strings.Contains(out, "\n  "+k+" = ") {
			t.Errorf("actiontest's %s, left out of the JSON when empty, is not listed", k)
		}
	}
}

// leafPaths lists the dotted paths of a JSON tree's scalar leaves; maps'
// keys count as leaves of their map.
func leafPaths(node any, path string) []string {
	switch n := node.(type) {
	case map[string]any:
		var out []string
		for k, v := range n {
			out = append(out, leafPaths(v, join(path, k))...)
		}
		return out
	case []any:
		var out []string
		for i, v := range n {
			out = append(out, leafPaths(v, join(path, jsonIndex(i)))...)
		}
		return out
	}
	return []string{path}
}

func jsonIndex(i int) string { b, _ := json.Marshal(i); return string(b) }

// listed reports whether the listing has path p or a value that holds it
// (a map, or a type that writes itself whole).
func listed(out, p string) bool {
	for {
		if strings.Contains(out, "  "+p+" = ") {
			return true
		}
		i := strings.LastIndex(p, ".")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}
