package flowtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A match cannot be interrupted, so a pattern whose worst case against the
// view passes recost.MaxSteps fails the turn before it runs: a 3.6 KB
// fixture (600,000 instructions against a 400 KB view) kept kitsoki test
// --sandbox --timeout 5s busy past a minute; this one (2,400 against
// 500 KB) took some 30 s, and content_matches reads a file of the same
// size.
func TestCostlyPatternsFailBeforeMatching(t *testing.T) {
	pattern := strings.Repeat("(?:x?){100}", 12) + "z"
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: {id: re}
world:
  big: {type: str, default: "` + strings.Repeat("x", 500_000) + `"}
intents:
  go: {}
root: a
states:
  a:
    view: "A"
    on:
      go: [{target: b}]
  b:
    view: "{{ world.big }}"
`,
		"flows/a.yaml": `test_kind: flow
app: re
initial_state: a
turns:
  - intent: {name: go, slots: {}}
    expect_state: b
    expect_view_matches: "` + pattern + `"
expect_files:
  - path: big.txt
    content_matches: "` + pattern + `"
`,
		"flows/big.txt": strings.Repeat("x", 500_000),
	})
	app := filepath.Join(dir, "app.yaml")
	files, _, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v, %d files", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if rs[0].Fatal != nil {
		t.Fatalf("fatal: %v", rs[0].Fatal)
	}
	var msgs []string
	for _, f := range rs[0].Failures {
		msgs = append(msgs, f.Message)
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"expect_view_matches: the pattern compiles to",
		"content_matches: the pattern compiles to",
		"shorten the pattern or match less text",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q among the failures:\n%.2000s", want, got)
		}
	}
}
