package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
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
	got := ruleMessages(ds, ruleParEmitLeave.ID)
	if len(got) != 1 || !strings.Contains(got[0], `intent "go" arm 0: emit: "ev" reaches region "p.rb", whose handler moves it to "outside"`) {
		t.Fatalf("want one par-emit-leave warning for go reaching p.rb, got %q", got)
	}
}

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
	root, leave := ruleMessages(ds, ruleReceiverRoot.ID), ruleMessages(ds, ruleParEmitLeave.ID)
	if len(root) != 1 || !strings.Contains(root[0], `intent "ev" arm 0: region "top.w.p.rb" receives the emit: event "ev" here, and this arm targets "top.w", whose initial: chain enters the parallel state itself`) ||
		!strings.Contains(root[0], `(top.w.p#...|top.w.p#... in "top.w.p.rb"'s place)`) {
		t.Errorf("receiver-root: %q", root)
	}
	if len(leave) != 0 {
		t.Errorf("par-emit-leave: %q", leave)
	}
}

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

// ruleMessages are the messages of the diagnostics of rule id.
func ruleMessages(ds []diag.Diagnostic, id string) []string {
	var out []string
	for _, d := range ds {
		if d.Rule == id {
			out = append(out, d.Message)
		}
	}
	return out
}
