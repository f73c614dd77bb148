// Command gensettings writes cmd/stakes/settings_doc.go: the doc comments
// of the rule packages' settings, which "stakes mechanics NAME" prints
// beside each setting, from the packages named as its arguments. Run it
// with go generate ./cmd/stakes.
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/internal/fielddoc"
)

func main() {
	src, err := fielddoc.Generate("../..", "github.com/stakesrpg/stakes", "main", os.Args[1:])
	if err == nil {
		err = os.WriteFile("settings_doc.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensettings:", err)
		os.Exit(1)
	}
}
