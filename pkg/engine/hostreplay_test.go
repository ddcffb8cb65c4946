package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fakeReplay answers handler with data, or with err once err is set, and
// records what it was asked; every answer carries one event.
type fakeReplay struct {
	handler string
	data    map[string]any
	err     error
	asked   []ReplayCall
}

func (f *fakeReplay) Handles(h string) bool { return h == f.handler }

func (f *fakeReplay) Replay(_ context.Context, c ReplayCall) (Replayed, error) {
	f.asked = append(f.asked, c)
	rep := Replayed{CallID: "c1", Events: []Event{{Kind: "agent.call.start", CallID: "c1"}}}
	if f.err != nil {
		return rep, f.err
	}
	rep.Data = f.data
	return rep, nil
}

// A replayed call binds the recording's data; the recording's events reach
// the sink stamped with the turn, the state and a time, also when the
// replay fails, whose error is the call's (on_error's last_error).
func TestHostReplayAnswersAndWritesItsEvents(t *testing.T) {
	fr := &fakeReplay{handler: "host.fake.op", data: map[string]any{"count": 3}}
	m := compileSource(t, "rp.yaml", `app: {id: rp}
world:
  n: {type: int, default: 0}
intents:
  go: {}
  back: {}
root: a
states:
  a:
    on: {go: [{target: b}]}
  b:
    on: {back: [{target: a}]}
    on_enter:
      - invoke: host.fake.op
        bind: {n: count}
`, CompileOptions{HostReplay: fr})
	sink := &recSink{}
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{HostReplay: fr, Sink: sink}, StartState: "a", Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire := func(intent string) {
		t.Helper()
		if _, err := s.Fire(t.Context(), Input{Intent: intent}); err != nil {
			t.Fatal(err)
		}
	}
	fire("go")
	if w := s.World(); w["n"] != float64(3) && w["n"] != int64(3) && w["n"] != 3 {
		t.Errorf("n = %#v, want the replayed count 3", w["n"])
	}
	if len(fr.asked) != 1 || fr.asked[0].State != "a" || fr.asked[0].AppID != "rp" || !fr.asked[0].Virtual {
		t.Fatalf("asked %+v: want one call from the turn's start state a, app rp, on the virtual clock", fr.asked)
	}
	evs := sink.kinds("agent.call.start")
	if len(evs) != 1 || evs[0].Turn != 1 || evs[0].StatePath != "b" || evs[0].TS.IsZero() {
		t.Fatalf("replay events %+v: want one, of turn 1 at b, with a time", evs)
	}
	fire("back")
	fr.err = errors.New("boom")
	fire("go")
	if le := s.World()["last_error"]; le != "boom" {
		t.Errorf("last_error = %v, want the replay's error", le)
	}
	if evs := sink.kinds("agent.call.start"); len(evs) != 2 || evs[1].Turn != 3 {
		t.Errorf("a failed replay's events must be written too: %+v", evs)
	}
}
