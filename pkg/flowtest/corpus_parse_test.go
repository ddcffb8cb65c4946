package flowtest

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"

	"kitsoki/internal/testing/storytest"
)

// corpusDir is the shared upstream corpus ("" when it is not here).
var corpusDir = storytest.CorpusDir()

func corpusFlows(t testing.TB) []string {
	dir := storytest.Shared(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "flows", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "flows", "*.yaml"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no flow fixtures in the corpus at " + dir)
	}
	return files
}

// Every corpus fixture parses without an error; warnings are what upstream
// ignores silently.
func TestCorpusFixturesParse(t *testing.T) {
	n := 0
	for _, f := range corpusFlows(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fxs, ds := parse(f, data)
		n += len(fxs)
		for _, d := range ds {
			if d.Severity == diag.Error {
				t.Errorf("%s", d)
			} else if testing.Verbose() {
				t.Logf("%s", d)
			}
		}
	}
	if n != 50 {
		t.Errorf("corpus flow documents: got %d, want 50", n)
	}
}
