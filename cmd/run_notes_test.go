package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestRunLogOnErrorNotes: run's log prints an on_error redirect as its
// move alone (the failed call's line above it already says why), and any
// other on_error note with its error (here a landing's own failed call,
// swallowed since its target names no state). The log told a redirect by a
// "→" in the note's text, so a note naming an on_error target written with
// a "→" lost its error.
func TestRunLogOnErrorNotes(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"app.yaml": `app: { id: notes, version: 0.1.0 }
world:
  out: {type: string, default: ""}
root: s
states:
  s:
    on_enter:
      - invoke: host.run
        with: {}
        bind: { out: stdout }
        on_error: landed
  landed:
    on_enter:
      - invoke: host.run
        with: {}
        bind: { out: stdout }
        on_error: "{{ 'a→b' }}"
  done:
    terminal: true
`,
	})
	_, out, errOut := runCmd(t, "run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	var notes []string
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "  on_error") {
			notes = append(notes, line)
		}
	}
	want := []string{
		"  on_error → landed",
		"  on_error {{ 'a→b' }} in an on_error landing: host.run: cmd argument is required",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Fatalf("on_error lines:\n%s\nwant:\n%s\nwhole log:\n%s%s", strings.Join(notes, "\n"), strings.Join(want, "\n"), out, errOut)
	}
}
