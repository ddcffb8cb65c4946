package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type hostHooksFunc func(ctx context.Context, handler string, args map[string]any, emit func(string, any) error) (map[string]any, error)

func (f hostHooksFunc) HostPreCall(ctx context.Context, handler string, args map[string]any, emit func(string, any) error) (map[string]any, error) {
	return f(ctx, handler, args, emit)
}

func TestHostPreCallHooks(t *testing.T) {
	needSh(t)
	// A refusal takes the effect's on_error path, like a failed call.
	veto := hostHooksFunc(func(_ context.Context, h string, _ map[string]any, emit func(string, any) error) (map[string]any, error) {
		if err := emit("hook.halted", map[string]any{"point": "host/pre-call", "plugin": "policy", "reason": "no shell"}); err != nil {
			return nil, err
		}
		return nil, errors.New("hook policy at host/pre-call halted the call: no shell")
	})
	res, sink := runWant(t, "onerror", "", Options{HostHooks: veto}, OutcomeTerminal, "failed")
	if len(sink.kinds("hook.halted")) != 1 || len(res.Calls) != 1 || !strings.Contains(res.Calls[0].Error, "no shell") {
		t.Fatalf("calls %+v, events %v", res.Calls, sink.kinds("hook.halted"))
	}
	if res.World["out"] != "" {
		t.Fatalf("the vetoed command ran: out = %v", res.World["out"])
	}

	// A rewrite changes what runs.
	var seen string
	fix := hostHooksFunc(func(_ context.Context, h string, args map[string]any, _ func(string, any) error) (map[string]any, error) {
		seen = h
		out := map[string]any{}
		for k, v := range args {
			out[k] = v
		}
		out["cmd"] = "echo rewritten"
		return out, nil
	})
	res, sink = runStory(t, "onerror", "", Options{HostHooks: fix})
	if seen != "host.run" || len(res.Calls) != 1 || !res.Calls[0].OK {
		t.Fatalf("rewrite: handler %q calls %+v (err %v)", seen, res.Calls, res.Err)
	}
	ret := sink.kinds(KindHarnessReturned)
	if len(ret) != 1 || !strings.Contains(string(mustJSON(t, ret[0].Payload)), "rewritten") {
		t.Fatalf("harness.returned = %+v", ret)
	}
	// Model-visible = logged: harness.dispatched records the args after
	// the rewrite (harness.called, written at walk time, the story's).
	dispatched := sink.kinds(KindHarnessDispatched)
	if len(dispatched) != 1 || !strings.Contains(string(mustJSON(t, dispatched[0].Payload)), `"cmd":"echo rewritten"`) {
		t.Fatalf("harness.dispatched must show the rewritten args: %s", mustJSON(t, dispatched))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
