package trace

import (
	"path/filepath"
	"testing"
)

// BenchmarkTracedRun10kTransitions writes the trace of a 10,000-transition
// run as the engine does (each transition a turn: turn.start,
// machine.timeout, machine.transition, machine.state_exited,
// machine.state_entered, world.update, turn.end; every 20th turn also an
// agent call with its answer) under the default SyncDurable policy: every
// turn end and agent answer fsynced, the rest batched. Goal (issue 13):
// >= 5,000 events/s on 2 cores. The SyncNever case is kitsoki test's.
func BenchmarkTracedRun10kTransitions(b *testing.B) {
	for _, bc := range []struct {
		name   string
		policy SyncPolicy
	}{{"durable", SyncDurable}, {"never", SyncNever}} {
		b.Run(bc.name, func(b *testing.B) {
			events := 0
			for i := 0; i < b.N; i++ {
				w, err := CreateWith(filepath.Join(b.TempDir(), "run.jsonl"), Header{AppID: "bench"}, Options{Sync: bc.policy})
				if err != nil {
					b.Fatal(err)
				}
				n, err := writeRun(w, 10_000)
				if err != nil {
					b.Fatal(err)
				}
				events += n
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func writeRun(w *Writer, transitions int) (int, error) {
	n := 0
	app := func(ev Event) error { n++; return w.Append(ev) }
	states := [2]string{"ping", "pong"}
	for t := 1; t <= transitions; t++ {
		from, to := states[t%2], states[(t+1)%2]
		evs := []Event{
			{Turn: t, Kind: "turn.start", StatePath: from, Payload: map[string]any{"input": nil}},
			{Turn: t, Kind: "machine.timeout", StatePath: from, Payload: map[string]any{"after": "1ms", "target": to}},
			{Turn: t, Kind: "machine.transition", StatePath: from, Payload: map[string]any{"from": from, "to": to, "intent": "timeout"}},
			{Turn: t, Kind: "machine.state_exited", StatePath: from, Payload: map[string]any{"state": from}},
			{Turn: t, Kind: "machine.state_entered", StatePath: to, Payload: map[string]any{"state": to}},
			{Turn: t, Kind: "world.update", StatePath: to, Payload: map[string]any{"key": "n", "before": t - 1, "after": t}},
		}
		if t%20 == 0 {
			evs = append(evs,
				Event{Turn: t, Kind: "agent.call.start", StatePath: to, CallID: "call-1", Payload: map[string]any{"verb": "ask", "prompt": "classify the build"}},
				Event{Turn: t, Kind: "agent.call.complete", StatePath: to, CallID: "call-1", Payload: map[string]any{"verb": "ask", "response": map[string]any{"submission": map[string]any{"label": "flaky"}}}},
			)
		}
		evs = append(evs, Event{Turn: t, Kind: "turn.end", StatePath: to, Payload: map[string]any{"state": to}})
		for _, ev := range evs {
			if err := app(ev); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}
