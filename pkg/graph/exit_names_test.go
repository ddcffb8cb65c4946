package graph

import (
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A job's on_complete target @exit:<name> inside an imported child names
// its exit on the edge wherever the job was started: an arm's effects,
// on_enter, or on_exit. The two exits lead to the same parent state, so
// the name can only come from the child's own text.
func TestOnCompleteExitNames(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		".kitsoki/keep": "",
		"app.yaml": `app: {id: parent}
hosts: [host.run]
root: lobby
intents: {go: {}}
imports:
  kid:
    source: ./kid
    exits:
      done: {to: lobby}
      failed: {to: lobby}
states:
  lobby:
    on:
      go: [{target: kid}]
`,
		"kid/app.yaml": `app: {id: kid}
hosts: [host.run]
root: work
exits: {done: {}, failed: {}}
intents: {next: {}}
states:
  work:
    on_enter:
      - invoke: host.run
        background: true
        on_complete:
          - target: "@exit:done"
    on_exit:
      - invoke: host.run
        background: true
        on_complete:
          - target: "@exit:failed"
    on:
      next: [{target: rest}]
  rest: {}
`,
	})
	g := load(t, dir)
	var got []string
	for _, e := range g.Edges {
		if e.Kind == EdgeOnComplete {
			got = append(got, edgeSummary(e))
		}
	}
	want := []string{
		"on_complete s_kid_work -> s_lobby host.run exit=done",
		"on_complete s_kid_work -> s_lobby host.run exit=failed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("on_complete edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
