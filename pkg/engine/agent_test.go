package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

func TestAgentCallPromptSchemaAlias(t *testing.T) {
	var got []AgentCall
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		got = append(got, c)
		if c.Verb == "decide" {
			return &AgentAnswer{Submission: []byte(`{"decision":"accept"}`)}, nil
		}
		return &AgentAnswer{Submission: []byte(`"hello there"`)}, nil
	})
	res, sink := runWant(t, "agent", "", Options{Agents: agents}, OutcomeTerminal, "judging")
	if len(got) != 2 {
		t.Fatalf("%d calls", len(got))
	}
	d := got[0]
	if d.Verb != "decide" || d.Alias != "agent.local" || d.Persona != "judge" || d.SchemaPath != "schemas/verdict.json" {
		t.Errorf("decide call = %+v", d)
	}
	if d.Prompt != "Judge the topic \"tabs vs spaces\".\nWorld topic: tabs vs spaces.\n" {
		t.Errorf("prompt file rendered = %q", d.Prompt)
	}
	if len(d.CallID) != 16 || d.Turn != 0 || d.StatePath != "judging" || d.EffectID != "judge_call" {
		t.Errorf("identity = %q %d %q %q", d.CallID, d.Turn, d.StatePath, d.EffectID)
	}
	// an inline prompt is a with: value first (upstream, conformance
	// probe 17: {{ args.what }} sees the machine's empty args), then
	// pongo2 with the call's args ({% if args.what %}), after the first
	// bind
	if got[1].Prompt != "Say something about  (accept)!" {
		t.Errorf("inline prompt = %q", got[1].Prompt)
	}
	if res.World["reply"] != "hello there" {
		t.Errorf("reply (bound from stdout of a string submission) = %v", res.World["reply"])
	}
	ret := payloadMap(t, sink.kinds(KindHarnessReturned)[0].Payload)["data"].(map[string]any)
	if ret["ok"] != true || ret["exit_code"] != float64(0) || ret["submitted"].(map[string]any)["decision"] != "accept" {
		t.Errorf("decide result = %v", ret)
	}
}

func TestAgentThroughRegistryWritesAgentEvents(t *testing.T) {
	st := loadStory(t, "agent")
	sink := &recSink{}
	reg, err := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	err = reg.RegisterInProcess("agent.local", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		if req.Verb == "decide" {
			if !strings.Contains(string(req.Schema), "decision") {
				return nil, errors.New("schema not sent")
			}
			return &agent.AskResponse{Submission: json.RawMessage(`{"decision":"reject"}`)}, nil
		}
		return &agent.AskResponse{Submission: json.RawMessage(`{"answer":"fine"}`)}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(st, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), m, Options{Agents: RegistryCaller(reg, sink), Sink: sink})
	wantOutcome(t, res, OutcomeTerminal, "judging")
	if res.World["verdict"].(map[string]any)["decision"] != "reject" || res.World["reply"] != "fine" {
		t.Errorf("world = %v", res.World)
	}
	starts, completes := sink.kinds(agent.EventCallStart), sink.kinds(agent.EventCallComplete)
	if len(starts) != 2 || len(completes) != 2 {
		t.Fatalf("agent events: %d start, %d complete", len(starts), len(completes))
	}
	if starts[0].CallID == "" || starts[0].CallID != completes[0].CallID || starts[0].StatePath != "judging" {
		t.Errorf("start/complete pairing: %+v / %+v", starts[0], completes[0])
	}
	// order: both harness.called at walk time, then per call
	// harness.dispatched, agent.call.start, agent.call.complete, harness.returned
	var order []string
	for _, e := range sink.evs {
		switch e.Kind {
		case KindHarnessCalled, KindHarnessDispatched, KindHarnessReturned, agent.EventCallStart, agent.EventCallComplete:
			order = append(order, e.Kind)
		}
	}
	if got := strings.Join(order[:6], ","); got != "harness.called,harness.called,harness.dispatched,agent.call.start,agent.call.complete,harness.returned" {
		t.Errorf("event order = %v", order)
	}
}

// An answer its schema refuses is the call's failure: without on_error the
// turn goes on with last_error set (story-runtime §2.3).
func TestAgentSchemaInvalidSetsLastError(t *testing.T) {
	st := loadStory(t, "agent")
	reg, _ := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir})
	defer reg.Close()
	reg.RegisterInProcess("agent.local", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(`{"decision":"maybe"}`)}, nil
	}))
	m, _ := Compile(st, CompileOptions{})
	sink := &recSink{}
	res := Run(context.Background(), m, Options{Agents: RegistryCaller(reg, sink), Sink: sink})
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
