package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A region's emit: whose receiver, for another region, is an unguarded
// arm of the parallel state targeting a state outside it is warned once
// per receiving region; a region that takes the event itself, a guarded
// handler and an arm that leaves the parallel state are not.
func TestParEmitLeaveWarns(t *testing.T) {
	_, ds := LoadSource("app.yaml", []byte(`app: {id: w}
root: outside
intents: {enter: {}, go: {}, quiet: {}, gone: {}, ev: {}, gev: {}}
states:
  outside:
    on: {enter: [{target: p}]}
  p:
    type: parallel
    on:
      ev: [{target: outside}]
      gev: [{when: "true", target: outside}]
    states:
      ra:
        type: compound
        initial: a1
        states:
          a1:
            on:
              go: [{target: ../a2, effects: [{emit: ev}]}]
              quiet: [{target: ../a2, effects: [{emit: gev}]}]
              gone: [{target: outside, effects: [{emit: ev}]}]
          a2: {}
      rb:
        type: compound
        initial: b1
        states:
          b1: {}
      rc:
        type: compound
        initial: c1
        states:
          c1: {on: {ev: [{target: .}]}}
`), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == ruleParEmitLeave.ID {
			got = append(got, d.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `intent "go" arm 0: emit: "ev" reaches region "p.rb", whose handler moves it to "outside"`) {
		t.Fatalf("want one par-emit-leave warning for go reaching p.rb, got %q", got)
	}
}
