package engine

import (
	"encoding/json"
	"testing"
)

// replayEvents rebuilds the final state and world from a run's events alone, the
// way a trace reader does: start from the story defaults, apply every
// world.update (set / increment), follow machine.state_entered.
func replayEvents(t *testing.T, m *Machine, evs []Event) (string, map[string]any) {
	t.Helper()
	w, _ := InitWorld(m.World, nil, nil)
	state := ""
	for _, e := range evs {
		switch e.Kind {
		case KindStateEntered:
			state = e.StatePath
		case KindWorldUpdate:
			b, _ := json.Marshal(e.Payload)
			var p struct {
				Set       map[string]any `json:"set"`
				Increment map[string]int `json:"increment"`
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			for k, v := range p.Set {
				setPath(w, k, v)
			}
			for k, d := range p.Increment {
				n, _ := asInt(getPath(w, k))
				setPath(w, k, n+d)
			}
		}
	}
	seedIDE(w) // seeded on every load, never journaled
	return state, w.Snapshot()
}

func TestTraceEventsReconstructTheRun(t *testing.T) {
	for _, c := range []struct {
		story string
		in    []Input
	}{
		{"effects", nil},
		{"onerror", nil},
		{"emit", nil},
		{"inputs", []Input{in("hello", "name", "ada"), in("next"), in("finish")}},
		{"transitions", []Input{in("again"), in("guarded", "n", "7"), in("abs")}},
	} {
		t.Run(c.story, func(t *testing.T) {
			m := compileStory(t, c.story)
			w, _ := InitWorld(m.World, nil, nil)
			w["session_id"] = "s1"
			sink := &recSink{}
			res := RunSession(t.Context(), m, SessionOptions{Bootstrap: true, Options: Options{SessionID: "s1", World: w, Inputs: c.in, Sink: sink}})
			state, world := replayEvents(t, m, sink.evs)
			if state != res.State {
				t.Errorf("folded state %q, run ended in %q", state, res.State)
			}
			want, _ := json.Marshal(res.World)
			got, _ := json.Marshal(world)
			if string(want) != string(got) {
				t.Errorf("folded world\n %s\nrun world\n %s", got, want)
			}
		})
	}
}
