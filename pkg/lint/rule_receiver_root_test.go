package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// TestReceiverRootTemplatedTarget: a receiver arm on the parallel state
// whose target is one {{ }} tag alone is judged on each value the world
// key it reads can hold (hunt92's legacy story 133: "{{ world.r }}" with
// r's default "" renders empty, which upstream reads as a move to the
// parallel state, probed); a value naming another state, or a template
// with text beside its tag, is not reported.
func TestReceiverRootTemplatedTarget(t *testing.T) {
	_, ds := LoadSource("app.yaml", []byte(`app: {id: w}
root: s0
world:
  r: {type: string, default: ""}
  self: {type: string, default: p}
  away: {type: string, default: s0}
intents: {go: {}, e1: {}, e2: {}, e3: {}, e4: {}}
states:
  s0: {on: {go: [{target: p}]}}
  p:
    type: parallel
    on:
      e1: [{target: "{{ world.r }}"}]
      e2: [{target: "{{ world.self }}"}]
      e3: [{target: "{{ world.away }}"}]
      e4: [{target: "s{{ world.r }}"}]
    states:
      ra:
        type: compound
        initial: a1
        states:
          a1: {on: {go: [{target: ., emit: [e1, e2, e3, e4]}]}}
      rb:
        type: compound
        initial: b1
        states:
          b1: {}
`), story.Options{})
	got := ruleMessages(ds, ruleReceiverRoot.ID)
	if len(got) != 2 ||
		!strings.Contains(got[0], `intent "e1" arm 0: region "p.rb" receives the emit: event "e1" here, and this arm has the templated target "{{ world.r }}", which renders "" where`) ||
		!strings.Contains(got[0], `and so has no target on "p", which upstream reads as a move to that state`) ||
		!strings.Contains(got[1], `intent "e2" arm 0: region "p.rb" receives the emit: event "e2" here, and this arm has the templated target "{{ world.self }}", which renders "p" where`) ||
		!strings.Contains(got[1], `(p#...|p#... in "p.rb"'s place)`) {
		t.Errorf("receiver-root: %q", got)
	}
}
