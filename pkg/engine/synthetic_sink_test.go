package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// syntheticSinkStory lands a background job whose on_complete chain fails
// (bad), one whose chain runs, calls an agent and replays a recorded call
// (ok), one whose chain only replays (rep), and a timeout whose landing fails (wait).
var syntheticSinkStory = `app: {id: synthsink}
agents:
  rev: {model: m1, system_prompt: You review.}
hosts: [host.job, host.fake.op, host.agent.ask]
intents: {bad: {}, ok: {}, rep: {}, wait: {}, ping: {}}
world:
  t: {type: string, default: ""}
  m: {type: map}
root: s0
states:
  s0:
    on:
      bad:
        - target: .
          effects:
            - invoke: host.job
              background: true
              on_complete:
                - set: {t: "{{ world.last_job_result.nope.x }}"}
      ok:
        - target: .
          effects:
            - invoke: host.job
              background: true
              on_complete:
                - set: {t: done}
                - invoke: host.agent.ask
                  with: {agent: rev, prompt: p}
                - invoke: host.fake.op
      rep:
        - target: .
          effects:
            - invoke: host.job
              background: true
              on_complete:
                - set: {t: done}
                - invoke: host.fake.op
      wait: [{target: s2}]
      ping: [{target: .}]
  s2:
    timeout: {after: 30s, target: s3}
    on:
      ping: [{target: .}]
  s3:
    on_enter:
      - set: {t: "{{ world.m.nope.x }}"}
`

// sinkLines is the sink's events as "turn kind" lines.
func sinkLines(s *recSink) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, ev := range s.evs {
		out = append(out, fmt.Sprintf("%d %s", ev.Turn, ev.Kind))
	}
	return out
}

func startSyntheticSink(t *testing.T) (*Session, *recSink) {
	t.Helper()
	reg := host.NewRegistry()
	reg.Register("host.job", host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{Data: map[string]any{"v": 1}, Delay: 10 * time.Second}, nil
	}))
	fr := &fakeReplay{handler: "host.fake.op", data: map[string]any{}}
	m := compileSource(t, "app.yaml", syntheticSinkStory, CompileOptions{HostReplay: fr, LateHandlers: true})
	sink := &recSink{}
	// the agent layer writes its own events to the run's sink, as
	// pkg/compose's RegistryCaller does
	agents := AgentCallerFunc(func(_ context.Context, c AgentCall) (*AgentAnswer, error) {
		if err := sink.Emit(Event{Turn: c.Turn, Kind: "agent.call.end"}); err != nil {
			return nil, err
		}
		return answerOf(`{"answer":"A"}`), nil
	})
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{HostReplay: fr, Sink: sink, Agents: agents}, StartState: "s0", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, sink
}

// A timeout or completion turn that fails writes nothing to the sink, as
// upstream's log keeps nothing of it and the next turn takes its number
// (conformance synthetic-fail-turn-number): the trace holds each number
// once. The failed turn's own events keep what it did.
func TestFailedSyntheticTurnWritesNothing(t *testing.T) {
	for _, tc := range []struct{ name, intent, first string }{
		{"completion", "bad", "background_completion"},
		{"timeout", "wait", "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, sink := startSyntheticSink(t)
			fire(t, s, tc.intent)
			tr, err := s.Advance(t.Context(), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, ev := range tr.Events {
				p, _ := ev.Payload.(map[string]any)
				if ev.Kind == KindTurnStart {
					kinds = append(kinds, fmt.Sprint(p["kind"]))
				}
				if ev.Kind == KindTurnEnd && p["error"] == nil && p["outcome"] != "error" && tc.first == "timeout" {
					t.Errorf("the timeout's turn.end %v, want its error", p)
				}
			}
			if strings.Join(kinds, ",") != tc.first {
				t.Errorf("the advance's turns %v, want the failed %s turn's events kept", kinds, tc.first)
			}
			fire(t, s, "ping")
			seen := map[int64]int{}
			for _, ev := range sink.kinds(KindTurnStart) {
				seen[ev.Turn]++
			}
			if len(seen) != 2 || seen[1] != 1 || seen[2] != 1 {
				t.Errorf("turn.start per number %v, want turns 1 and 2 once each; sink:\n%s", seen, strings.Join(sinkLines(sink), "\n"))
			}
			if n := len(sink.kinds(KindMachineError)); n != 0 {
				t.Errorf("%d machine.error events reached the sink", n)
			}
		})
	}
}

// A completion turn that stands reaches the sink whole and in order: its
// events are held while it may still fail, and the events a replayed call
// and the agent layer write to the sink directly come after those before
// the call.
func TestSyntheticTurnSinkOrder(t *testing.T) {
	for _, tc := range []struct {
		intent string
		want   []string
	}{
		{"ok", []string{
			"2 turn.start", "2 world.update", "2 harness.called", "2 harness.called",
			"2 agent.call.end", "2 agent.call.start", "2 harness.dispatched", "2 harness.returned",
			"2 harness.dispatched", "2 harness.returned", "2 scheduler.completed", "2 world.update", "2 turn.end",
			"3 turn.input", "3 turn.start",
		}},
		{"rep", []string{
			"2 turn.start", "2 world.update", "2 harness.called", "2 agent.call.start",
			"2 harness.dispatched", "2 harness.returned", "2 scheduler.completed", "2 world.update", "2 turn.end",
			"3 turn.input", "3 turn.start",
		}},
	} {
		t.Run(tc.intent, func(t *testing.T) {
			s, sink := startSyntheticSink(t)
			fire(t, s, tc.intent)
			if _, err := s.Advance(t.Context(), time.Minute); err != nil {
				t.Fatal(err)
			}
			fire(t, s, "ping")
			got, want := strings.Join(sinkLines(sink), "\n"), strings.Join(tc.want, "\n")
			if !strings.Contains(got, want) {
				t.Errorf("sink:\n%s\nwant in it:\n%s", got, want)
			}
		})
	}
}
