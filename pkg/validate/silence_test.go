package validate

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
)

// TestEveryRuleSilenceable: for every rule id docs/checks.md lists
// (summaries), each warning its golden input reports goes away under a
// `# kitsoki:ignore <id>` comment alone on the line above it, and, with
// --strict, no comment is reported as suppressing nothing. A finding in a
// JSON file (which holds no comment) takes its comment above the story
// line that names the file (Diagnostic.ViaFile); one inside a block scalar
// (key: |), above that key. Rules whose input reports
// errors only are listed: an error cannot be silenced, by design.
func TestEveryRuleSilenceable(t *testing.T) {
	var errorsOnly []string
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for id := range summaries() {
			if !yield(id) {
				return
			}
		}
	}) {
		switch id {
		case lint.IgnoreRule().ID, "eval", "io", "internal":
			// ignore: findings about the comments themselves; eval: a
			// dataset validate does not read (kitsoki eval check); io and
			// internal: an unreadable file and a rule that panicked,
			// errors with no golden input
			continue
		}
		dir := ruleGoldenDir(id)
		if dir == "" {
			t.Errorf("rule %s has no golden input to check", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			tmp := storytest.TempCopy(t, dir)
			app := filepath.Join(tmp, StoryFile)
			warned := ruleWarnings(validateLikeCmd(t, []string{app}, false), id)
			if len(warned) == 0 {
				errorsOnly = append(errorsOnly, id)
				return
			}
			// the comments, bottom up per file so earlier lines keep their
			// numbers
			type at struct {
				file string
				line int
			}
			var places []at
			for _, d := range warned {
				p := at{d.File, d.Line}
				if strings.HasSuffix(d.File, ".json") {
					if d.ViaLine <= 0 {
						t.Errorf("a finding in a JSON file names no story line to silence it at: %s", d)
						continue
					}
					p = at{d.ViaFile, d.ViaLine}
				}
				if p.line <= 0 {
					t.Errorf("a finding with no line cannot be silenced: %s", d)
					continue
				}
				p.line = blockHeaderLine(t, p.file, p.line)
				places = append(places, p)
			}
			slices.SortFunc(places, func(a, b at) int { return cmp.Or(strings.Compare(a.file, b.file), b.line-a.line) })
			places = slices.Compact(places)
			for _, p := range places {
				insertCommentAbove(t, p.file, p.line, "# kitsoki:ignore "+id)
			}
			after := validateLikeCmd(t, []string{app}, true)
			for _, d := range ruleWarnings(after, id) {
				t.Errorf("not silenced: %s", d)
			}
			for _, d := range after {
				if d.Rule == lint.IgnoreRule().ID {
					t.Errorf("the comment is itself reported: %s", d)
				}
			}
		})
	}
	t.Logf("inputs reporting errors only (an error cannot be silenced): %s", strings.Join(errorsOnly, ", "))
}

// ruleGoldenDir is the directory of rule id's golden input, "" when it
// has none.
func ruleGoldenDir(id string) string {
	for _, g := range goldenDirs {
		dir := filepath.Join(g, id)
		if _, err := os.Stat(filepath.Join(dir, StoryFile)); err == nil {
			return dir
		}
	}
	return ""
}

// blockHeaderLine is the line of the key: | (or >) whose block scalar
// holds line, where the comment goes (no comment can be written inside
// the text); line itself elsewhere.
func blockHeaderLine(t *testing.T, file string, line int) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	for l := line - 1; l >= 1; l-- {
		above := strings.TrimSpace(lines[l-1])
		if above == "" || indent(lines[l-1]) >= indent(lines[line-1]) {
			continue
		}
		if v := strings.TrimRight(above, "-+0123456789"); strings.HasSuffix(v, "|") || strings.HasSuffix(v, ">") {
			return l
		}
		break
	}
	return line
}

// ruleWarnings are the warnings of ds under rule id.
func ruleWarnings(ds []diag.Diagnostic, id string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == id && d.Severity == diag.Warning {
			out = append(out, d)
		}
	}
	return out
}

// insertCommentAbove writes comment alone on a new line above line (1-based)
// of file, indented as that line is.
func insertCommentAbove(t *testing.T, file string, line int, comment string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		t.Fatalf("%s has no line %d", file, line)
	}
	target := lines[line-1]
	indent := target[:len(target)-len(strings.TrimLeft(target, " "))]
	lines = slices.Insert(lines, line-1, indent+comment)
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
