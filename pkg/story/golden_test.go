package story

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/diag"
)

// TestBrokenGolden pins every diagnostic of each broken story once, as the
// human format prints it: file:line:col, severity, message, rule, the
// source line and the caret under the token
// (testdata/broken/<rule>/expect.golden). Regenerate with
// go test ./pkg/story -run BrokenGolden -update.
func TestBrokenGolden(t *testing.T) {
	ents, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		_, ds := Load(filepath.Join("testdata/broken", e.Name()), Options{LookupEnv: noEnv})
		checkRuleGolden(t, e.Name(), ds)
	}
}

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
	// Absolute paths differ between machines.
	if wd, err := os.Getwd(); err == nil {
		got = strings.ReplaceAll(got, wd, "$PKG")
	}
	golden.CheckString(t, filepath.Join("testdata", "broken", rule, "expect.golden"), got)
}
