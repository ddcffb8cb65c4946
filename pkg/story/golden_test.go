package story

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
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
		checkRuleGolden(t, e.Name(), ds)
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

// checkRuleGolden pins, per rule, every diagnostic as the human format
// prints it: file:line:col, the source line and the caret under the token
// (testdata/broken/<rule>/expect.golden).
func checkRuleGolden(t *testing.T, rule string, ds []diag.Diagnostic) {
	t.Helper()
	var b bytes.Buffer
	err := diag.WriteHuman(&b, ds, diag.HumanOptions{Snippet: true, Source: func(f string) ([]byte, bool) {
		data, err := os.ReadFile(f)
		return data, err == nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if wd, err := os.Getwd(); err == nil {
		got = strings.ReplaceAll(got, wd, "$PKG")
	}
	golden := filepath.Join("testdata", "broken", rule, "expect.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run BrokenGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s: positions or carets changed; diff against %s (rerun with -update if intended):\n%s", rule, golden, got)
	}
}
