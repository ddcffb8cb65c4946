package trace

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"
)

// synthTrace writes a realistic trace of n turns: each turn has a turn.input,
// turn.start, intent, transition, state exit/enter, a host call, a world
// update, an agent call with usage and cost, a say line and turn.end. The
// clock is fixed so the bytes are reproducible.
func synthTrace(t testing.TB, out io.Writer, turns int) {
	t.Helper()
	base := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := base
	tick := func(d time.Duration) time.Time { clock = clock.Add(d); return clock }
	h, _ := encodeHeader(Header{WrittenAt: base, AppID: "ci-triage", Story: "examples/ci-triage/app.yaml", Generator: "kitsoki test"})
	out.Write(h)
	var seq int
	emit := func(ev Event) {
		ev.Seq = seq
		seq++
		b, err := encodeEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
	}
	states := []string{"triage.collect", "triage.decide", "triage.fix", "triage.report"}
	emit(Event{Turn: 0, TS: tick(time.Millisecond), Kind: "machine.state_entered", StatePath: "triage", Payload: map[string]any{"state": "triage"}})
	emit(Event{Turn: 0, TS: tick(time.Millisecond), Kind: "machine.state_entered", StatePath: "triage.collect", Payload: map[string]any{"state": "triage.collect"}})
	for turn := 1; turn <= turns; turn++ {
		seq = 0
		from, to := states[(turn-1)%4], states[turn%4]
		intent := []string{"collected", "decided", "fixed", "again"}[(turn-1)%4]
		callID := fmt.Sprintf("%016x", uint64(turn)*0x9e3779b97f4a7c15)
		emit(Event{Turn: turn, TS: tick(2 * time.Millisecond), Kind: "harness.dispatched", Payload: map[string]any{"args": map[string]any{"cmd": "go", "args": []string{"test", "./..."}}, "background": false, "namespace": "host.run", "rerender_fell_back": false}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "agent.call.start", StatePath: from, CallID: callID, Payload: map[string]any{"verb": "decide", "agent": "agent.claude", "model": "claude-sonnet-4-6", "prompt": "Decide what to do with the failing test output:\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL\n", "input": map[string]any{"schema_path": "schemas/decision.json"}}})
		lat := time.Duration(200+(turn*37)%900) * time.Millisecond
		emit(Event{Turn: turn, TS: tick(lat), Kind: "agent.call.complete", StatePath: from, CallID: callID, Payload: map[string]any{"verb": "decide", "agent": "agent.claude", "model": "claude-sonnet-4-6", "duration_ms": lat.Milliseconds(),
			"response": map[string]any{"submission": map[string]any{"action": "retry", "reason": "flaky <network> & timeout"}},
			"meta":     map[string]any{"usage": map[string]any{"input_tokens": 1500 + turn%100, "output_tokens": 80 + turn%20}, "cost_usd": 0.0123}}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "turn.input", StatePath: from, Payload: map[string]any{"input": "[intent] " + intent, "intent": intent}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "turn.start", StatePath: from, Payload: map[string]any{"direct": true, "input": "[direct] intent=" + intent, "turn": turn}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "machine.intent_accepted", StatePath: from, Payload: map[string]any{"intent": intent, "slots": map[string]any{}}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "machine.transition", StatePath: from, Payload: map[string]any{"from": from, "intent": intent, "slots": map[string]any{}, "to": to}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "harness.called", StatePath: from, Payload: map[string]any{"args": map[string]any{"cmd": "go", "args": []string{"test", "./..."}}, "background": false, "namespace": "host.run"}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "world.update", StatePath: from, Payload: map[string]any{"set": map[string]any{"attempts": turn, "last_action": "retry"}}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "machine.state_exited", StatePath: from, Payload: map[string]any{"state": from}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "machine.state_entered", StatePath: to, Payload: map[string]any{"state": to}})
		emit(Event{Turn: turn, TS: tick(30 * time.Millisecond), Kind: "harness.returned", StatePath: to, Payload: map[string]any{"namespace": "host.run", "data": map[string]any{"exit_code": 1, "ok": false, "stdout": "--- FAIL: TestParse (0.00s)\nFAIL\texample/parse\t0.002s\n"}}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "machine.say", StatePath: to, Payload: map[string]any{"text": "Retrying the flaky test (attempt " + fmt.Sprint(turn) + ")"}})
		emit(Event{Turn: turn, TS: tick(time.Millisecond), Kind: "turn.end", StatePath: from, Payload: map[string]any{"outcome": "transitioned", "to": to}})
	}
}

func synthBytes(t testing.TB, turns int) []byte {
	var b bytes.Buffer
	synthTrace(t, &b, turns)
	return b.Bytes()
}

func TestSynthTraceVerifies(t *testing.T) {
	data := synthBytes(t, 50)
	res, err := Verify(bytes.NewReader(data), "synth")
	if err != nil || res.Events != 2+50*14 || res.Turns != 51 {
		t.Fatalf("%+v %v", res, err)
	}
}
