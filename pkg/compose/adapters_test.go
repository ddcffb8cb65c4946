package compose

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

// agentStory is pkg/engine's agent story: a decide with a schema, then an
// ask, both through agent.local.
const agentStory = "../engine/testdata/agent"

// eventLog is an engine.Sink that keeps every event.
type eventLog struct {
	mu  sync.Mutex
	evs []engine.Event
}

func (l *eventLog) Emit(ev engine.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, ev)
	return nil
}

func (l *eventLog) kinds(kinds ...string) []engine.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []engine.Event
	for _, e := range l.evs {
		for _, k := range kinds {
			if e.Kind == k {
				out = append(out, e)
			}
		}
	}
	return out
}

// runAgentStory runs agentStory with agent.local answered by answer,
// through RegistryCaller.
func runAgentStory(t *testing.T, answer agent.AgentFunc) (*engine.Result, *eventLog) {
	t.Helper()
	st := storyload.Load(t, agentStory, story.Options{})
	reg, err := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if err := reg.RegisterInProcess("agent.local", answer); err != nil {
		t.Fatal(err)
	}
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sink := &eventLog{}
	return engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Agents: RegistryCaller(reg, sink), Sink: sink}}), sink
}

// The registry answers the engine's agent calls and its agent.call.*
// events land in the run's sink, between the engine's harness events.
func TestRegistryCallerWritesAgentEvents(t *testing.T) {
	res, sink := runAgentStory(t, func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		if req.Verb == "decide" {
			if !strings.Contains(string(req.Schema), "decision") {
				return nil, errors.New("schema not sent")
			}
			return &agent.AskResponse{Submission: json.RawMessage(`{"decision":"reject"}`)}, nil
		}
		return &agent.AskResponse{Submission: json.RawMessage(`{"answer":"fine"}`)}, nil
	})
	if res.Outcome != engine.OutcomeTerminal || res.State != "judging" {
		t.Fatalf("outcome %s at %s (err %v)", res.Outcome, res.State, res.Err)
	}
	if v, _ := res.World["verdict"].(map[string]any); v["decision"] != "reject" || res.World["reply"] != "fine" {
		t.Errorf("world = %v", res.World)
	}
	starts, completes := sink.kinds(agent.EventCallStart), sink.kinds(agent.EventCallComplete)
	if len(starts) != 2 || len(completes) != 2 {
		t.Fatalf("agent events: %d start, %d complete", len(starts), len(completes))
	}
	if starts[0].CallID == "" || starts[0].CallID != completes[0].CallID || starts[0].StatePath != "judging" {
		t.Errorf("start/complete pairing: %+v / %+v", starts[0], completes[0])
	}
	// both harness.called at walk time, then per call harness.dispatched,
	// agent.call.start, agent.call.complete, harness.returned
	var order []string
	for _, e := range sink.kinds(engine.KindHarnessCalled, engine.KindHarnessDispatched, engine.KindHarnessReturned, agent.EventCallStart, agent.EventCallComplete) {
		order = append(order, e.Kind)
	}
	if got := strings.Join(order, ","); !strings.HasPrefix(got, "harness.called,harness.called,harness.dispatched,agent.call.start,agent.call.complete,harness.returned,") {
		t.Errorf("event order = %v", order)
	}
}

// An answer its schema refuses is the call's failure (agent.call.error):
// without on_error the turn goes on with last_error set.
func TestRegistryCallerSchemaInvalidSetsLastError(t *testing.T) {
	res, sink := runAgentStory(t, func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(`{"decision":"maybe"}`)}, nil
	})
	if res.Err != nil {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if len(sink.kinds(agent.EventCallError)) != 1 {
		t.Error("no agent.call.error")
	}
	if le, _ := res.World["last_error"].(string); !strings.Contains(le, "schema_invalid") {
		t.Errorf("last_error = %q", le)
	}
}

// AgentSink with no run sink drops the agent layer's events.
func TestAgentSinkNil(t *testing.T) {
	if err := AgentSink(nil).Emit(agent.Event{Kind: agent.EventCallStart}); err != nil {
		t.Fatal(err)
	}
}

// TraceSink writes the engine's events as trace lines that read back the
// same.
func TestTraceSinkWritesTheEvents(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := trace.CreateWith(p, trace.Header{AppID: "x"}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := TraceSink(w)
	if err := s.Emit(engine.Event{Turn: 3, Kind: engine.KindSay, StatePath: "a.b", CallID: "c1", Payload: map[string]any{"text": "hi"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var ev struct {
		Turn      int            `json:"turn"`
		Kind      string         `json:"kind"`
		StatePath string         `json:"state_path"`
		CallID    string         `json:"call_id"`
		Payload   map[string]any `json:"payload"`
	}
	if len(lines) != 2 {
		t.Fatalf("want a header and one event:\n%s", b)
	}
	if err := json.Unmarshal([]byte(lines[1]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Turn != 3 || ev.Kind != engine.KindSay || ev.StatePath != "a.b" || ev.CallID != "c1" || ev.Payload["text"] != "hi" {
		t.Errorf("read back %+v from %s", ev, lines[1])
	}
}
