package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestRunInterruptedStopsCleanly(t *testing.T) {
	m := compileStory(t, "effects")
	m.States["start"].OnEnter[0] = &Effect{Kind: kindInvoke, Invoke: "host.run", With: map[string]any{"cmd": "sleep 120"}, owner: m.States["start"]}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	sink := &recSink{}
	start := time.Now()
	res := RunSession(ctx, m, SessionOptions{Bootstrap: true, Options: Options{Sink: sink}})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), "interrupted") {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if time.Since(start) > time.Minute { // the sleep's 2 minutes, not a load-sensitive bound
		t.Error("run did not stop promptly")
	}
	if len(sink.kinds(KindMachineError)) != 1 {
		t.Error("no machine.error event recorded for the interrupted run")
	}
}
