package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// goldenDirs hold one <rule>/ directory per rule: a minimal broken input and
// its expect.golden, every diagnostic as `kitsoki validate` prints it on a
// terminal (file:line:col, message, source line, caret). The story rules'
// are pkg/story's (TestBrokenGolden); this package's cover the rules of the
// checks validate adds (flow fixtures, plugin profile, eval evidence, MCP
// tool names) and the ignore comments.
var goldenDirs = []string{filepath.Join("..", "story", "testdata", "broken"), "testdata"}

func noEnv(string) (string, bool) { return "", false }

// validateLikeCmd is what `kitsoki validate <app>` reports: Run with the
// lint of the flow fixtures beside each sound story, as cmd/ wires it.
func validateLikeCmd(t *testing.T, apps []string, strict bool) []diag.Diagnostic {
	t.Helper()
	return Run(apps, Options{Story: story.Options{LookupEnv: noEnv}, Strict: strict, Flows: true}).Diagnostics
}

// repoSource reads a file the goldens name through the repository's root.
var repoSource = diag.RootSource(nil, safefile.NewRoot(filepath.Join("..", "..")))

// human renders ds as the human format with snippets, machine paths
// replaced by $PKG.
func human(t *testing.T, ds []diag.Diagnostic) string {
	t.Helper()
	var b bytes.Buffer
	if err := diag.WriteHuman(&b, ds, diag.HumanOptions{Snippet: true, Source: repoSource}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if wd, err := os.Getwd(); err == nil {
		out = strings.ReplaceAll(out, wd, "$PKG")
	}
	return out
}

// TestRuleGoldens pins, per rule of testdata/<rule>/, every diagnostic of
// its input as validate prints it (the eval rule's, as `kitsoki eval
// check` does: validate never reads a dataset that does not parse).
// Regenerate with: go test ./pkg/validate -run RuleGoldens -update
func TestRuleGoldens(t *testing.T) {
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	known := summaries()
	n := 0
	for _, e := range ents {
		rule := e.Name()
		if !e.IsDir() || rule == lint.IgnoreRule().ID { // TestIgnoreGolden (--strict, ignore findings only)
			continue
		}
		n++
		t.Run(rule, func(t *testing.T) {
			if _, ok := known[rule]; !ok {
				t.Fatalf("testdata/%s names no registered rule", rule)
			}
			dir := filepath.Join("testdata", rule)
			var ds []diag.Diagnostic
			if rule == "eval" {
				ds, err = eval.Check(dir, nil)
				if err != nil {
					t.Fatal(err)
				}
			} else {
				ds = validateLikeCmd(t, []string{filepath.Join(dir, StoryFile)}, false)
			}
			found := false
			for _, d := range ds {
				if d.Rule == rule {
					found = true
					if d.Line == 0 || d.Col == 0 {
						t.Errorf("not positioned at a token: %s", d)
					}
				}
			}
			if !found {
				t.Errorf("rule %s not reported; got:\n%s", rule, human(t, ds))
			}
			got := human(t, ds)
			golden.CheckString(t, filepath.Join(dir, "expect.golden"), got)
		})
	}
	if n < 10 {
		t.Fatalf("only %d rule directories under testdata", n)
	}
}
