package engine

import (
	"context"
	"strings"
	"testing"

	"kitsoki/pkg/host"
)

// A handler that panics on a real clock, in the foreground and as a
// background job on its own goroutine: the call fails, the run goes on
// to its terminal state, and Result.Bugs names each panic (run under
// -race: the job's goroutine logs it while the session reads it).
func TestHandlerPanicFailsTheCall(t *testing.T) {
	m := compileSource(t, "p.yaml", `app: {id: p}
intents: {go: {}}
root: a
states:
  a:
    on:
      go:
        - target: a
          effects:
            - invoke: host.boom
              with: {v: fg}
              on_error: j
  j:
    on_enter:
      - invoke: host.boom
        background: true
        with: {v: bg}
        on_complete:
          - target: done
  done: {terminal: true}
`, CompileOptions{LateHandlers: true})
	reg := host.NewRegistry()
	reg.Register("host.boom", host.HandlerFunc(func(_ context.Context, c *host.Call) (host.Result, error) {
		panic(c.Args["v"].(string) + strings.Repeat("x", 500))
	}))
	res := RunSession(t.Context(), m, SessionOptions{Options: Options{Inputs: []Input{{Intent: "go"}}}, Bootstrap: true, Hosts: reg})
	if res.Err != nil || res.State != "done" {
		t.Fatalf("outcome %s at %q: %v; jobs %+v bugs %q", res.Outcome, res.State, res.Err, res.Jobs, res.Bugs)
	}
	if len(res.Bugs) != 2 {
		t.Fatalf("bugs %q, want the foreground and the job's panic", res.Bugs)
	}
	for i, v := range []string{"fg", "bg"} {
		want := "host.boom: the handler panicked: " + v + strings.Repeat("x", 200-2) + "… (a kitsoki bug: please report it, with the trace)"
		if res.Bugs[i] != want {
			t.Errorf("bug %d = %q, want %q", i, res.Bugs[i], want)
		}
	}
	if len(res.Jobs) != 1 || res.Jobs[0].Status != JobFailed || res.Jobs[0].Error != res.Bugs[1] {
		t.Errorf("jobs %+v", res.Jobs)
	}
}
