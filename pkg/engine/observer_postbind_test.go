package engine

import (
	"testing"

	"kitsoki/pkg/host"
)

// An on_enter emit_intent guarded on a bind fires in the post-bind round
// (postBindRound); the observer hears it once, at its line, so kitsoki
// test --cover counts it (corpus docs-review fixing.yaml and
// conflict-resolve's escalate were listed never reached though they
// fired). One the round finds false is not heard.
func TestObserverHearsPostBindEmit(t *testing.T) {
	const src = `app: {id: obspb}
root: start
world:
  v: {type: string, default: ""}
intents: {go: {}, done: {}, other: {}}
states:
  start:
    on:
      go: [{target: work}]
  work:
    on_enter:
      - invoke: host.scan
        bind: {v: out}
      - emit_intent: done
        when: "world.v != ''"
      - emit_intent: other
        when: "world.v == 'never'"
    on:
      done: [{target: finish}]
      other: [{target: finish}]
  finish: {}
`
	_, s, obs := observed(t, src, "host.scan", host.Result{Data: map[string]any{"out": "x"}})
	fire(t, s, "go")
	if got := s.State(); got != "finish" {
		t.Fatalf("state %s", got)
	}
	if n := obs.n["effect 14"]; n != 1 {
		t.Errorf("the post-bind emit_intent (line 14) heard %d times, want 1; heard %v", n, obs.n)
	}
	if n := obs.n["effect 16"]; n != 0 {
		t.Errorf("the false emit_intent (line 16) heard %d times; heard %v", n, obs.n)
	}
}
