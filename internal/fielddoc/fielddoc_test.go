package fielddoc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	src := `package p

// Rules are the rules.
type Rules struct {
	// StartEdge is how many edge dice each party
	// starts with.
	StartEdge int
	Bonus     int // Bonus is added to every check.
	Bare      int
	hidden    int // not exported
	// A, B share a comment.
	A, B int
}

type inner struct {
	// X is in an unexported type.
	X int
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\ntype T struct {\n\t// F is a test's.\n\tF int\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := Collect(dir, "ex/p")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"ex/p.Rules.StartEdge": "StartEdge is how many edge dice each party starts with.",
		"ex/p.Rules.Bonus":     "Bonus is added to every check.",
		"ex/p.Rules.A":         "A, B share a comment.",
		"ex/p.Rules.B":         "A, B share a comment.",
	}
	if len(docs) != len(want) {
		t.Errorf("got %d docs: %v", len(docs), docs)
	}
	for k, v := range want {
		if docs[k] != v {
			t.Errorf("%s = %q, want %q", k, docs[k], v)
		}
	}
}

// TestEverySettingsDocIsCurrent: every settings_doc.go in the module holds
// exactly the doc comments its package has now (go generate rewrites it).
func TestEverySettingsDocIsCurrent(t *testing.T) {
	const root, module = "../..", "github.com/stakesrpg/stakes"
	files, err := filepath.Glob(filepath.Join(root, "*", "settings_doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "settings_doc.go"))
	for _, f := range append(files, more...) {
		dir := filepath.Dir(f)
		rel, _ := filepath.Rel(root, dir)
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(dir)
		if i := bytes.Index(got, []byte("\npackage ")); i >= 0 {
			name = strings.Fields(string(got[i+len("\npackage "):]))[0]
		}
		want, err := Generate(dir, module+"/"+filepath.ToSlash(rel), name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./%s", f, rel)
		}
	}
}
