package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestBrokenGolden pins every diagnostic of each broken story once, as the
// human format prints it: file:line:col, severity, message, rule, the
// source line and the caret under the token
// (testdata/broken/<rule>/expect.golden). Regenerate with
// go test ./pkg/lint -run BrokenGolden -update.
func TestBrokenGolden(t *testing.T) {
	ents, err := os.ReadDir(fixtures + "/broken")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		_, ds := Load(filepath.Join(fixtures+"/broken", e.Name()), story.Options{LookupEnv: noEnv})
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
	// The goldens name the fixtures as pkg/story's tests see them.
	got = strings.ReplaceAll(got, fixtures+"/", "testdata/")
	// Absolute paths differ between machines.
	if dir, err := filepath.Abs(filepath.Dir(fixtures)); err == nil {
		got = strings.ReplaceAll(got, dir, "$PKG")
	}
	golden.CheckString(t, filepath.Join(fixtures, "broken", rule, "expect.golden"), got)
}
