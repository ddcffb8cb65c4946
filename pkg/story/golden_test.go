package story

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/broken.golden")

// TestBrokenGolden pins every diagnostic (position, severity, message,
// rule) of the broken stories. Regenerate with: go test -run BrokenGolden -update
func TestBrokenGolden(t *testing.T) {
	ents, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		_, ds := Load(filepath.Join("testdata/broken", e.Name()), Options{LookupEnv: noEnv})
		out := render(ds)
		// Absolute paths differ between machines.
		if wd, err := os.Getwd(); err == nil {
			out = strings.ReplaceAll(out, wd, "$PKG")
		}
		b.WriteString(out)
	}
	golden := filepath.Join("testdata", "broken.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("diagnostics changed; diff against %s (rerun with -update if intended):\n%s", golden, got)
	}
}
