package lint

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// TestPhaseKeysFindings pins what the phases: structure check reports on
// the template state keys: one error per unknown {name} of a key, a
// warning for a name the story's own state or an earlier entry has, {id}
// as the graph key whatever the entry says, an entry's value before the
// template's default, values that are not strings written as upstream
// writes them, and no key check for an entry missing a required value.
func TestPhaseKeysFindings(t *testing.T) {
	src := `app: {id: keys}
intents:
  go: {}
phase_templates:
  t:
    parameters:
      label: {type: string, required: true}
      kind: {type: string, default: plain}
      n: {type: int, default: 3}
      id: {type: string, default: fixed}
    states:
      "{id}_{kind}":
        on: {go: [{target: lobby}]}
      "{id}_{who}_{what}":
        on: {go: [{target: lobby}]}
      "{kind}_{n}":
        on: {go: [{target: lobby}]}
phases:
  template: t
  graph:
    a: {label: A}
    b: {label: B, kind: x, n: 4.5, id: c}
    lobby: {label: L, kind: x}
    c: {label: C, kind: x, n: 4.5}
    d: {kind: plain}
    plain: {label: P, n: true}
root: lobby
states:
  lobby:
    on: {go: [{target: a_plain}]}
  a_plain: {terminal: true}
`
	st, _ := story.LoadSource("app.yaml", []byte(src), story.Options{})
	if st == nil {
		t.Fatal("nil story")
	}
	var b strings.Builder
	ds, _ := Check(st, story.Options{})
	for _, d := range ds {
		if d.Rule == story.RulePhases.ID {
			fmt.Fprintf(&b, "%d:%d %s %s\n", d.Line, d.Col, d.Severity, d.Message)
		}
	}
	want := `12:7 warning phases.graph["a"]: template state "{id}_{kind}" expands to "a_plain", which the story's own state already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase
14:7 error phases.graph["a"]: state name "{id}_{who}_{what}": unknown parameter "what" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["a"]: state name "{id}_{who}_{what}": unknown parameter "who" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["b"]: state name "{id}_{who}_{what}": unknown parameter "what" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["b"]: state name "{id}_{who}_{what}": unknown parameter "who" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["c"]: state name "{id}_{who}_{what}": unknown parameter "what" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["c"]: state name "{id}_{who}_{what}": unknown parameter "who" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["lobby"]: state name "{id}_{who}_{what}": unknown parameter "what" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["lobby"]: state name "{id}_{who}_{what}": unknown parameter "who" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["plain"]: state name "{id}_{who}_{what}": unknown parameter "what" (declare it under parameters: with a default, or give it in the graph entry)
14:7 error phases.graph["plain"]: state name "{id}_{who}_{what}": unknown parameter "who" (declare it under parameters: with a default, or give it in the graph entry)
16:7 warning phases.graph["c"]: template state "{kind}_{n}" expands to "x_4.5", which phases.graph["b"]'s "{kind}_{n}" already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase
25:5 error phases.graph["d"]: missing required template parameter "label"
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
