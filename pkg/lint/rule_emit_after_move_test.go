package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// What emit-after-move must not warn about: a later emit the new state
// (or an ancestor, or a "*" entry) takes, a guarded later emit, an
// earlier emit whose arm is guarded or stays, a move into a state whose
// on_enter emits (the order is no longer certain), and a parallel region.
func TestEmitAfterMoveQuiet(t *testing.T) {
	src := `app: {id: quiet}
root: start
world:
  n: {type: int, default: 0}
intents:
  go: {}
  a: {}
  b: {}
  g: {}
  s: {}
  e: {}
states:
  start:
    on:
      go:
        - target: .
          effects:
            - emit_intent: a
            - emit_intent: b
            - emit_intent: g
            - when: "world.n > 1"
              emit_intent: e
      a: [{target: t}]
      b: [{target: u}]
      g:
        - when: "world.n > 0"
          target: v
      e: [{target: busy}]
  t:
    on:
      b: [{target: t}]
      g: [{target: t}]
      e: [{target: t}]
  u:
    on:
      "*": [{target: u}]
  v: {}
  busy:
    on_enter:
      - emit_intent: s
    on:
      s: [{target: v}]
  p:
    type: parallel
    states:
      r1:
        type: compound
        initial: x
        states:
          x:
            on_enter: [{emit_intent: a}, {emit_intent: b}]
            on: {a: [{target: y}], b: [{target: x}]}
          y: {}
      r2: {}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleEmitAfterMove.ID {
			t.Errorf("unexpected %s", d)
		}
	}
}

// A stay between the moves and a second move are followed: the later
// emit is judged where the list has got to.
func TestEmitAfterMoveFollows(t *testing.T) {
	src := `app: {id: w}
root: start
intents: {go: {}, a: {}, b: {}, c: {}}
states:
  start:
    on:
      go:
        - target: .
          effects: [{emit_intent: c}, {emit_intent: a}, {emit_intent: b}, {emit_intent: c}]
      a: [{target: t}]
      c: [{target: .}]
  t:
    on:
      b: [{target: u}]
  u: {}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == ruleEmitAfterMove.ID {
			got = append(got, d.Message)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d emit-after-move findings, want 1 (c at u): %v", len(got), ds)
	}
	if want := `emit_intent "c" comes after emit_intent "b", whose arm moves the machine to "u"`; !strings.Contains(got[0], want) {
		t.Errorf("got %q, want it to say %q", got[0], want)
	}
}
