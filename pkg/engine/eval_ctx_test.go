package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A turn's guards hear the session call's context end before each
// evaluation: an evaluation cannot be interrupted, and each of many
// guards within the evaluation bounds may cost much of a second, so a
// story of such arms ran `kitsoki test --sandbox` for minutes, hearing
// --timeout only between turns. A call whose context has ended
// evaluates no guard: the turn fails naming why. A live one runs as ever.
func TestGuardsHearTheCallsContextEnd(t *testing.T) {
	m := compileSource(t, "ctx.yaml", `app: {id: ctx}
intents:
  go: {}
root: a
states:
  a:
    on:
      go:
        - when: 'len(string(1..9)) > 100'
          target: a
        - target: b
  b: {}
`, CompileOptions{})
	start := func() *Session {
		s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Clock: NewVirtualClock(time.Unix(0, 0))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	s := start()
	if tn, err := s.Fire(t.Context(), Input{Intent: "go"}); err != nil || tn.Err != nil || s.State() != "b" {
		t.Fatalf("live context: turn %+v, err %v, state %q; want b", tn, err, s.State())
	}
	s = start()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	tn, err := s.Fire(ctx, Input{Intent: "go"})
	if err == nil && (tn == nil || tn.Err == nil) {
		t.Fatalf("ended context: the turn ran to %q; want it to fail before the guard", s.State())
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else {
		msg = tn.Err.Error()
	}
	if !strings.Contains(msg, "not evaluated: the run ended") {
		t.Errorf("ended context: %q, want the guard not evaluated, naming the run's end", msg)
	}
}
