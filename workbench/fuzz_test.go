package workbench

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzScenarioFile reads any bytes as a scenario file, as stakes run and
// --file do: never a panic, and a file that reads gives a scenario that
// validates or says why not, and whose study makes a spec.
func FuzzScenarioFile(f *testing.F) {
	files, _ := filepath.Glob("../examples/scenarios/*.jsonc")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	e := testEnv()
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > maxScenarioFile {
			return
		}
		lf, err := e.parseScenarioFile("fuzz.jsonc", raw)
		if err != nil {
			return
		}
		if err := lf.scenario.validate(); err != nil {
			return
		}
		if _, err := lf.scenario.spec("fuzz"); err != nil {
			t.Fatalf("a valid scenario makes no spec: %v", err)
		}
	})
}
