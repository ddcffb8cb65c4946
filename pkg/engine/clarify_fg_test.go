package engine

import (
	"context"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// A foreground call that asks a clarification fails as upstream's does: a
// domain error (last_error set), no data bound (flow-probes/probe2 g01).
func TestForegroundClarificationIsADomainError(t *testing.T) {
	m := compileSource(t, "fg.yaml", `app: {id: fg}
world:
  n: {type: int, default: 0}
intents:
  go: {}
root: a
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter:
      - invoke: host.ask.user
        bind: {n: count}
`, CompileOptions{LateHandlers: true})
	reg := host.NewRegistry()
	reg.Register("host.ask.user", host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{Data: map[string]any{"count": 3}, Clarification: &host.Clarification{Question: "what?"}}, nil
	}))
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Fire(t.Context(), Input{Intent: "go"}); err != nil {
		t.Fatal(err)
	}
	w := s.World()
	if w["n"] != uint64(0) { // the default, a YAML whole number
		t.Errorf("n = %v: a foreground clarification must bind nothing", w["n"])
	}
	if w["last_error"] != errForegroundClarification {
		t.Errorf("last_error = %v", w["last_error"])
	}
}
