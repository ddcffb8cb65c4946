package flowtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
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
	files, _, err := Discover([]string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "f.yaml"), false, nil)
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
