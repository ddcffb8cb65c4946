package engine

import (
	"reflect"
	"testing"
)

// gateStory: the existing engine's `test flows --json` report on it shows
// the gate_decided events TestGateDecidedOncePerEmitList wants (a fixture
// cannot tell them apart: expect_events is a subsequence match on kinds).
const gateStory = `
app: {id: gates, version: 0.1.0}
intents: {a: {}, c: {}, d: {}, x: {}, y: {}, z: {}, back: {}}
root: s0
states:
  s0:
    on:
      a: [{target: m}]
      c: [{target: m3}]
      d: [{target: n, effects: [{emit_intent: y}, {emit_intent: y}]}]
      y: [{target: .}]
  m:
    on_enter: [{emit_intent: x}, {emit_intent: y}]
    on:
      x: [{target: n}]
      y: [{target: .}]
      back: [{target: s0}]
  m3:
    on_enter: [{emit_intent: y}, {emit_intent: x}]
    on:
      x: [{target: n}]
      y: [{target: .}]
      back: [{target: s0}]
  n:
    on:
      y: [{target: .}]
      z: [{target: s0}]
`

// A list of emits decides its gate once, before its first emit, at the
// state that emit fires at: a sibling fired where an earlier hop landed
// records no gate_decided. available_intents lists every intent the
// state can take now, stays and emitted names included.
func TestGateDecidedOncePerEmitList(t *testing.T) {
	m := compileSource(t, "gates.yaml", gateStory, CompileOptions{})
	for _, c := range []struct {
		intent, state string
		avail         []any
	}{
		{"a", "m", []any{"back", "x", "y"}},  // x at m; y at n records nothing
		{"c", "m3", []any{"back", "x", "y"}}, // y at m3; x at m3 records nothing
		{"d", "n", []any{"y", "z"}},          // the arc's two emits at n: one event
	} {
		s, err := Start(t.Context(), m, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tn := fire(t, s, c.intent)
		wantState(t, s, "n")
		gd := kindsOf(tn.Events, KindGateDecided)
		if len(gd) != 1 {
			t.Fatalf("%s: %d gate_decided events, want 1: %v", c.intent, len(gd), gd)
		}
		p := payloadMap(t, gd[0].Payload)
		if p["state"] != c.state || !reflect.DeepEqual(p["available_intents"], c.avail) {
			t.Errorf("%s: gate_decided %v, want state %s available %v", c.intent, p, c.state, c.avail)
		}
		s.Close()
	}
}
