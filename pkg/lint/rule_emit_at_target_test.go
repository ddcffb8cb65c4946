package lint

import (
	"strings"
	"testing"
)

func emitAtTarget(t *testing.T, src string) []string {
	t.Helper()
	return sourceMessages(t, src, ruleEmitAtTarget.ID)
}

// An arm's first unguarded emit is judged where the move lands: a leaf
// (reached through a compound's initial:) that takes it neither itself
// nor by an ancestor, and an @exit, are warned with the place and the fix.
func TestEmitAtTargetWarns(t *testing.T) {
	got := emitAtTarget(t, `app: {id: w}
root: start
exits: {out: {}}
intents: {go: {}, box: {}, quit: {}, ping: {}}
states:
  start:
    on:
      go:
        - target: other
          effects: [{set: {}}, {emit_intent: ping}]
      box:
        - target: b
          effects: [{emit_intent: ping}]
      quit:
        - target: "@exit:out"
          effects: [{emit_intent: ping}]
      ping: [{target: start}]
  other: {}
  b:
    type: compound
    initial: k
    states:
      k: {}
`)
	want := []string{
		`state "start" intent "go" arm 0: emit_intent "ping" runs after the arm's move, so it is dispatched at "other", and no arm of "other" or its ancestors takes "ping"`,
		`state "start" intent "box" arm 0: emit_intent "ping" runs after the arm's move, so it is dispatched at "b.k"`,
		`state "start" intent "quit" arm 0: emit_intent "ping" runs after the arm's move to @exit:out, so it is dispatched at __exit__out`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d findings, want %d: %q", len(got), len(want), got)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d: got %q, want it to say %q", i, got[i], w)
		}
	}
}

// What emit-at-target must not warn about: a target that (or whose
// ancestor, or a "*" entry) takes the emit, a guarded emit, a later emit
// (emit-after-move's), an emit after an on_error: call or a background
// job, a target whose on_enter emits, a stay, a parallel region, an
// imported child's state and a templated emit.
func TestEmitAtTargetQuiet(t *testing.T) {
	got := emitAtTarget(t, `app: {id: quiet}
root: start
world:
  n: {type: int, default: 0}
hosts: [host.run]
intents: {a: {}, b: {}, c: {}, d: {}, e: {}, f: {}, g: {}, h: {}, i: {}, ping: {}, pong: {}}
states:
  start:
    on:
      a:
        - target: taker
          effects: [{emit_intent: ping}]
      b:
        - target: grp.leaf
          effects: [{emit_intent: ping}]
      c:
        - target: wild
          effects: [{emit_intent: ping}]
      d:
        - target: other
          effects: [{emit_intent: ping, when: "world.n > 0"}]
      e:
        - target: other
          effects:
            - invoke: host.run
              with: {cmd: "true"}
              on_error: start
            - emit_intent: ping
      f:
        - target: busy
          effects: [{emit_intent: ping}]
      g:
        - target: .
          effects: [{emit_intent: ping}]
      h:
        - target: other
          effects: [{emit_intent: "{{ world.n }}"}]
      i:
        - target: taker
          effects: [{emit_intent: ping}, {emit_intent: pong}]
      ping: [{target: start}]
      pong: [{target: start}]
  taker:
    on:
      ping: [{target: taker}]
  grp:
    type: compound
    initial: leaf
    on:
      ping: [{target: start}]
    states:
      leaf: {}
  wild:
    on:
      "*": [{target: wild}]
  other: {}
  busy:
    on_enter: [{emit_intent: pong}]
    on:
      pong: [{target: taker}]
  p:
    type: parallel
    states:
      r1:
        type: compound
        initial: x
        states:
          x:
            on:
              a:
                - target: p.r1.y
                  effects: [{emit_intent: ping}]
              ping: [{target: p.r1.x}]
          y: {}
      r2:
        type: compound
        initial: z
        states:
          z:
            on:
              ping: [{target: p.r2.z}]
`)
	if len(got) != 0 {
		t.Errorf("unexpected findings: %q", got)
	}
}
