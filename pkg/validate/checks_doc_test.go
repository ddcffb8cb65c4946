package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
)

// docs/checks.md is generated from the registry and the per-rule goldens
// and must stay equal to it (like actionlint's check-checks).
func TestChecksDocIsCurrent(t *testing.T) {
	got := checksMarkdown(goldenDirs...)
	golden.CheckString(t, filepath.Join("..", "..", "docs", "checks.md"), got)
}

// Every diagnostic validate reports for the test inputs of every package
// (stories, flow fixtures, eval datasets, plugin profiles, the per-rule
// inputs of testdata/) carries a registered rule id.
func TestEveryDiagnosticNamesARegisteredRule(t *testing.T) {
	known := summaries()
	var roots []string
	for _, dir := range []string{filepath.Join("..", "story", "testdata", "broken"), "testdata",
		filepath.Join("..", "flowtest", "testdata"), filepath.Join("..", "eval", "testdata")} {
		roots = append(roots, dir+"/...")
	}
	files, err := Expand(roots, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds := validateLikeCmd(t, files, true)
	if len(ds) < 60 {
		t.Fatalf("only %d diagnostics", len(ds))
	}
	seen := map[string]bool{}
	for _, d := range ds {
		seen[d.Rule] = true
		if _, ok := known[d.Rule]; !ok {
			t.Errorf("unregistered rule id %q: %s", d.Rule, d)
		}
	}
	for _, id := range []string{"flow-unknown-key", "plugin-profile", "selection-evidence", "mcp-tool-name", "ignore"} {
		if !seen[id] {
			t.Errorf("no %s diagnostic: the inputs no longer cover the checks validate adds", id)
		}
	}
}

// The kitsoki:ignore examples in the docs name rules that exist.
func TestIgnoreExamplesNameRealRules(t *testing.T) {
	known := summaries()
	re := regexp.MustCompile("kitsoki:ignore ((?:[a-z][a-z-]*(?:, ?)?)+)")
	for _, f := range []string{"../../README.md", "../diag/ignore.go", "../../docs/checks.md"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			for _, id := range strings.Split(m[1], ",") {
				id = strings.TrimSpace(id)
				if id == "" || id == "no-such-rule" || id == "comment" || id == "names" || id == "suppresses" {
					continue
				}
				n++
				if _, ok := known[id]; !ok {
					t.Errorf("%s: kitsoki:ignore %s names no rule", f, id)
				}
			}
		}
		if f != "../../docs/checks.md" && n == 0 {
			t.Errorf("%s: no kitsoki:ignore example found", f)
		}
	}
}

// The ignore rule's golden: file:line:col and the caret of every finding
// about # kitsoki:ignore comments, under --strict.
func TestIgnoreGolden(t *testing.T) {
	res := Run([]string{filepath.Join("testdata", "ignore", "app.yaml")}, Options{Strict: true})
	var b strings.Builder
	var ds []diag.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Rule == lint.IgnoreRule().ID {
			ds = append(ds, d)
		}
	}
	if err := diag.WriteHuman(&b, ds, diag.HumanOptions{Snippet: true, Source: res.Source}); err != nil {
		t.Fatal(err)
	}
	golden.CheckString(t, filepath.Join("testdata", "ignore", "expect.golden"), b.String())
	if len(ds) != 3 {
		t.Fatalf("%d ignore findings, want 3:\n%s", len(ds), b.String())
	}
}
