// Command settingsdoc writes settings_doc.go into the package in the
// current directory: the doc comment of every documented field of its
// exported structs, as var fieldDocs, which the package's Scenario hands
// to the faces through sim.Description's Docs so that "stakes mechanics
// NAME" and the web page explain each setting in the words its package
// documents it with. A mechanic, in this module or another, runs it with
//
//	//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc
//
// and go generate.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/stakesrpg/stakes/internal/fielddoc"
)

func main() {
	if err := write(); err != nil {
		fmt.Fprintln(os.Stderr, "settingsdoc:", err)
		os.Exit(1)
	}
}

func write() error {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}}", ".").Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	importPath, name, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !ok {
		return fmt.Errorf("go list said %q", out)
	}
	src, err := fielddoc.Generate(".", importPath, name)
	if err != nil {
		return err
	}
	return os.WriteFile("settings_doc.go", src, 0o644)
}
