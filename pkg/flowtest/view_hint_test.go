package flowtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

// TestViewMismatchSaysWhatTheViewLeftOut: an element whose when: fails is
// left out of the view without a word, as upstream's is; a view check that
// then fails says which element and why.
func TestViewMismatchSaysWhatTheViewLeftOut(t *testing.T) {
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: { id: hint, version: 0.1.0 }
world:
  files: { type: string, default: "abc" }
intents:
  look: { description: look }
root: show
states:
  show:
    view:
      - heading: "Files"
      - prose: "SHOWN"
        when: "world.files > 3"
    on:
      look: [ { target: . } ]
`,
		"flows/f.yaml": `test_kind: flow
app: ../app.yaml
initial_state: show
turns:
  - intent: { name: look }
    expect_view_matches: "SHOWN"
  - intent: { name: look }
    expect_view_matches: "Files"
`,
	})
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "f.yaml"), false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v (%d files)", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if len(rs) != 1 || len(rs[0].Failures) != 1 {
		t.Fatalf("want one failure (turn 1), got %+v", rs)
	}
	msg := rs[0].Failures[0].Message
	for _, want := range []string{`view does not match "SHOWN"`, "\nleft out: ", `when "world.files > 3"`, "the element is omitted"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure %q does not say %q", msg, want)
		}
	}
	if strings.Count(msg, "left out:") != 1 {
		t.Errorf("failure %q names the element more than once", msg)
	}
}

// TestFailureQuotesABoundedView: a view check that fails quotes the view
// whole up to viewShown bytes, and only its start past that, so a story
// rendering megabytes (here a 40 KB world default shown twice) cannot put them
// into every failing fixture's message; a short view is quoted whole.
func TestFailureQuotesABoundedView(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("é", 20_000) // 40,000 bytes, shown twice: far past viewShown and diag.MaxMessage
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: { id: big }
world:
  s: { type: string, default: "` + big + `" }
  short: { type: string, default: "hi" }
intents:
  look: {}
  peek: {}
  bad: {}
root: show
states:
  show:
    view: "{{ world.s }}{{ world.s }}"
    on:
      look: [ { target: . } ]
      peek: [ { target: small } ]
      bad: [ { target: small, when: "int(world.s) > 1" } ]
  small:
    view: "{{ world.short }}"
`,
		"flows/f.yaml": `test_kind: flow
initial_state: show
turns:
  - intent: { name: look }
    expect_view_matches: "^x"
---
test_kind: flow
initial_state: show
turns:
  - intent: { name: look }
    expect_no_view: true
---
test_kind: flow
initial_state: show
turns:
  - intent: { name: peek }
    expect_view_matches: "^x"
---
test_kind: flow
initial_state: show
turns:
  - intent: { name: bad }
`,
	})
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "f.yaml"), false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v (%d files)", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if len(rs) != 4 {
		t.Fatalf("want four results, got %d", len(rs))
	}
	for i, r := range rs[:2] {
		if len(r.Failures) != 1 {
			t.Fatalf("fixture %d: want one failure, got %+v", i, r.Failures)
		}
		msg := r.Failures[0].Message
		if len(msg) > 2*viewShown || !strings.Contains(msg, "… (80000 bytes in all") || !utf8.ValidString(strings.Split(msg, "…")[0]) {
			t.Errorf("fixture %d: a %d-byte failure (%.200q…): want the view's start, cut on a rune, and its length", i, len(msg), msg)
		}
	}
	if len(rs[2].Failures) != 1 || !strings.HasSuffix(rs[2].Failures[0].Message, "\nview: \"hi\"") {
		t.Errorf("a short view: want it quoted whole, got %+v", rs[2].Failures)
	}
	// a guard's error quoting the world value int() could not parse
	if fs := rs[3].Failures; len(fs) != 1 {
		t.Errorf("a failed turn: want one failure, got %d", len(fs))
	} else if m := fs[0].Message; len(m) > diag.MaxMessage+64 || !strings.Contains(m, "bytes left out") {
		t.Errorf("a failed turn: want a failure of at most about %d bytes, got %d (%.200q)", diag.MaxMessage, len(m), m)
	}
}
