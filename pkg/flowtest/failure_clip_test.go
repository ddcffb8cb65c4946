package flowtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"kitsoki/internal/testing/storytest"
)

// TestFailureClipsOnARune: a failure quoting a long world value (cut at
// 300 bytes) and the event summaries under it (each value cut at 80) cut
// on a rune boundary, never through a multi-byte character. The value's
// 3-byte "日"s put both byte counts inside a character: at 300 in the
// quoted value, at 80 in the event's {"s":"…"}.
func TestFailureClipsOnARune(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("日", 300)
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: { id: clip }
world:
  s: { type: string, default: "" }
intents:
  go: {}
root: a
states:
  a:
    on:
      go:
        - target: .
          effects:
            - set: { s: "` + big + `" }
`,
		"flows/f.yaml": `test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_world: { s: "x" }
`,
	})
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "f.yaml"), false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v (%d files)", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if len(rs) != 1 || len(rs[0].Failures) != 1 {
		t.Fatalf("want one fixture with one failure, got %+v", rs)
	}
	f := rs[0].Failures[0]
	if !strings.Contains(f.Message, "日…") || !utf8.ValidString(f.Message) {
		t.Errorf("the failure message splits a character or is not cut: %q", f.Message)
	}
	cut := false
	for _, ev := range f.Events {
		cut = cut || strings.Contains(ev, "…")
		if !utf8.ValidString(ev) {
			t.Errorf("an event summary splits a character: %q", ev)
		}
	}
	if !cut {
		t.Errorf("no event summary was cut: %q", f.Events)
	}
}
