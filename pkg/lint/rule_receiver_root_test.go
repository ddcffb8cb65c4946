package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A receiver targeting a state above the parallel state whose initial:
// chain enters it is the parallel state's own case (receiver-root, not
// par-emit-leave; conformance par-emit-leave-parallel); one whose chain
// enters another parallel state is neither.
func TestReceiverRootAncestorInitial(t *testing.T) {
	_, ds := LoadSource("app.yaml", []byte(`app: {id: w}
root: top
intents: {go: {}, up: {}, other: {}, ev: {}, oev: {}}
states:
  top:
    type: compound
    initial: s0
    states:
      s0: {on: {go: [{target: top.w}]}}
      w:
        type: compound
        initial: p
        states:
          p:
            type: parallel
            on:
              ev: [{target: top.w}]
              oev: [{target: top.w2}]
            states:
              ra:
                type: compound
                initial: a1
                states:
                  a1: {on: {up: [{target: ../a2, emit: [ev]}], other: [{target: ../a2, emit: [oev]}]}}
                  a2: {}
              rb:
                type: compound
                initial: b1
                states:
                  b1: {}
      w2:
        type: compound
        initial: q
        states:
          q:
            type: parallel
            states:
              qa: {type: compound, initial: q1, states: {q1: {}}}
              qb: {type: compound, initial: r1, states: {r1: {}}}
`), story.Options{})
	var root, leave []string
	for _, d := range ds {
		switch d.Rule {
		case ruleReceiverRoot.ID:
			root = append(root, d.Message)
		case ruleParEmitLeave.ID:
			leave = append(leave, d.Message)
		}
	}
	if len(root) != 1 || !strings.Contains(root[0], `intent "ev" arm 0: region "top.w.p.rb" receives the emit: event "ev" here, and this arm targets "top.w", whose initial: chain enters the parallel state itself`) ||
		!strings.Contains(root[0], `(top.w.p#...|top.w.p#... in "top.w.p.rb"'s place)`) {
		t.Errorf("receiver-root: %q", root)
	}
	if len(leave) != 0 {
		t.Errorf("par-emit-leave: %q", leave)
	}
}
