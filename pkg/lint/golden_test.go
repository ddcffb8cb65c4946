package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// TestPhasesExpandedGolden pins what the check of the expanded phases:
// states finds (testdata/phases-expanded/<rule>: a generated target that
// does not exist, a nested generated state handling a checkpoint intent, a
// guard a substituted quote breaks, an undeclared with.agent named per
// generated state), each refused upstream at load, as
// TestBrokenGolden prints them. Regenerate with -run PhasesExpandedGolden
// -update.
func TestPhasesExpandedGolden(t *testing.T) {
	for _, rule := range []string{"target", "intent", "expr", "template", "agent-invoke"} {
		dir := filepath.Join(fixtures, "phases-expanded", rule)
		_, ds := Load(dir, story.Options{LookupEnv: noEnv})
		if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == rule && d.Severity == diag.Error }) {
			t.Errorf("%s: no %s error: %v", dir, rule, ds)
		}
		checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
	}
	// what upstream loads stays runnable: an emit_intent of a generated
	// state is not checked, a view's pongo2 error is lint-only
	dir := filepath.Join(fixtures, "phases-expanded", "loads")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	if unrunnable(ds) || !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == rulePongo.ID }) {
		t.Errorf("%s: want runnable with a pongo finding, got %v", dir, ds)
	}
	checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
}

// TestTemplateRefusedGolden pins the value templates the existing engine
// refuses to load though they read well (testdata/template-refused/<case>,
// each with a README: a "}}" inside a string literal, a dot inside
// {{ range }} that upstream's rewrite leaves or doubles), as TestBrokenGolden
// prints them. Regenerate with -run TemplateRefusedGolden -update.
func TestTemplateRefusedGolden(t *testing.T) {
	for _, c := range []string{"close", "range-dot"} {
		dir := filepath.Join(fixtures, "template-refused", c)
		_, ds := Load(dir, story.Options{LookupEnv: noEnv})
		if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == "template" && d.Severity == diag.Error }) {
			t.Errorf("%s: no template error: %v", dir, ds)
		}
		checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
	}
}

func checkRuleGolden(t *testing.T, rule string, ds []diag.Diagnostic) {
	t.Helper()
	checkGoldenAt(t, filepath.Join(fixtures, "broken", rule, "expect.golden"), ds)
}

func checkGoldenAt(t *testing.T, path string, ds []diag.Diagnostic) {
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
	golden.CheckString(t, path, got)
}
