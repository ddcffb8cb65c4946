package localllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// fallbackFixture: agent.local (endpoint mode, against a chat stand-in
// answering localAnswer) and an in-process agent.claude.
func fallbackFixture(t *testing.T, localAnswer string, claude *agenttest.StubAgent) (*agenttest.Fixture, *chatEndpoint) {
	t.Helper()
	ep := newChatEndpoint(t)
	ep.set(func(c *chatEndpoint) { c.content = localAnswer })
	fx := localFixture(t, ep.URL, func(p *story.AgentPlugin) { p.Grammar = true })
	if err := fx.Registry.RegisterInProcess(story.DefaultAgentAlias, claude); err != nil {
		t.Fatal(err)
	}
	return fx, ep
}

var verdictCall = agent.Call{Alias: "agent.local", Verb: "decide", SessionID: "s", Turn: 1, StatePath: "judging", Prompt: "approve?", SchemaPath: "schemas/verdict.json"}

func TestFallbackOnSchemaInvalidSucceeds(t *testing.T) {
	claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
	fx, _ := fallbackFixture(t, `{"verdict":"maybe"}`, claude) // fail-open: outside the enum
	res, err := fx.Registry.Dispatch(context.Background(), verdictCall)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Submission) != `{"verdict":"reject"}` || res.Alias != "agent.local" {
		t.Fatalf("result %+v", res)
	}
	if res.Meta["fallback_of"] != "agent.local" || res.Meta["model"] != "claude-stub" {
		t.Fatalf("meta %v", res.Meta)
	}
	if s := res.Substitution; s == nil || s.Reason != "schema_invalid" || s.OriginalPlugin != "agent.local" || s.FallbackPlugin != "agent.claude" {
		t.Fatalf("substitution %+v", s)
	}
	calls := claude.Calls()
	if len(calls) != 1 || calls[0].CallID != res.CallID || calls[0].Prompt != "approve?" || !jsonEqual(string(calls[0].Schema), verdictSchema) {
		t.Fatalf("agent.claude asked %+v", calls)
	}
	evs := fx.Sink.Events()
	if k := fx.Sink.Kinds(); strings.Join(k, ",") != "agent.call.start,agent.call.complete" {
		t.Fatalf("events %v", k)
	}
	for _, ev := range evs {
		if ev.CallID != res.CallID {
			t.Fatalf("event %s under call_id %s, want %s", ev.Kind, ev.CallID, res.CallID)
		}
	}
	p := agenttest.PayloadMap(evs[1])
	sub, _ := p["substitution"].(map[string]any)
	if sub["reason"] != "schema_invalid" || sub["original_plugin"] != "agent.local" || sub["fallback_plugin"] != "agent.claude" ||
		!strings.Contains(sub["original_error"].(string), "schema_invalid") {
		t.Fatalf("complete payload %v", p)
	}
	meta, _ := p["meta"].(map[string]any)
	if meta["fallback_of"] != "agent.local" || p["model"] != "claude-stub" {
		t.Fatalf("complete payload %v", p)
	}
	// The payload keeps the trace's key order, substitution last.
	b, _ := json.Marshal(evs[1].Payload)
	if !strings.HasPrefix(string(b), `{"verb":"decide"`) || !strings.Contains(string(b), `,"substitution":{"reason":"schema_invalid","original_plugin":"agent.local","fallback_plugin":"agent.claude"`) {
		t.Fatalf("payload JSON %s", b)
	}
}

func TestFallbackFailureCarriesSubstitution(t *testing.T) {
	cases := map[string]struct {
		claude   *agenttest.StubAgent
		wantKind agent.Kind
	}{
		"claude schema_invalid too": {&agenttest.StubAgent{Answer: `{"verdict":"perhaps"}`}, agent.KindSchemaInvalid},
		"claude transport error":    {&agenttest.StubAgent{Err: agent.Errorf(agent.KindTransportError, "claude: unreachable")}, agent.KindTransportError},
		"claude plain error":        {&agenttest.StubAgent{Err: errors.New("boom")}, agent.KindPluginCrash},
		"claude sub-event outside its namespace": {&agenttest.StubAgent{Answer: `{"verdict":"reject"}`, Subs: func(req *agent.AskRequest) []agent.SubEvent {
			return []agent.SubEvent{{Kind: "agent.local.tool", CallID: req.CallID}}
		}}, agent.KindSubEventNamespaceViolation},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fx, _ := fallbackFixture(t, "not json at all", tc.claude)
			_, err := fx.Registry.Dispatch(context.Background(), verdictCall)
			if agent.KindOf(err) != tc.wantKind {
				t.Fatalf("got %v, want %s", err, tc.wantKind)
			}
			if len(tc.claude.Calls()) != 1 {
				t.Fatalf("agent.claude asked %d times, want exactly once", len(tc.claude.Calls()))
			}
			evs := fx.Sink.Events()
			if k := fx.Sink.Kinds(); strings.Join(k, ",") != "agent.call.start,agent.call.error" {
				t.Fatalf("events %v", k)
			}
			p := agenttest.PayloadMap(evs[1])
			sub, _ := p["substitution"].(map[string]any)
			if sub["original_plugin"] != "agent.local" || sub["fallback_plugin"] != "agent.claude" || sub["reason"] != "schema_invalid" {
				t.Fatalf("error payload %v", p)
			}
		})
	}
}

func TestFallbackSubEventsUnderClaudesNamespace(t *testing.T) {
	claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`, Subs: func(req *agent.AskRequest) []agent.SubEvent {
		return []agent.SubEvent{{Kind: "agent.claude.tool_use", CallID: req.CallID, Payload: json.RawMessage(`{"tool":"read"}`)}}
	}}
	fx, _ := fallbackFixture(t, `{}`, claude)
	if _, err := fx.Registry.Dispatch(context.Background(), verdictCall); err != nil {
		t.Fatal(err)
	}
	if k := fx.Sink.Kinds(); strings.Join(k, ",") != "agent.call.start,agent.claude.tool_use,agent.call.complete" {
		t.Fatalf("events %v", k)
	}
}

func TestNoFallbackWhenNotEligible(t *testing.T) {
	t.Run("valid local answer", func(t *testing.T) {
		claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
		fx, _ := fallbackFixture(t, `{"verdict":"approve"}`, claude)
		res, err := fx.Registry.Dispatch(context.Background(), verdictCall)
		if err != nil || res.Substitution != nil || res.Meta["fallback_of"] != nil || len(claude.Calls()) != 0 {
			t.Fatalf("%v %+v %d", err, res, len(claude.Calls()))
		}
	})
	t.Run("local transport error", func(t *testing.T) {
		claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
		fx, ep := fallbackFixture(t, `{}`, claude)
		ep.set(func(c *chatEndpoint) { c.status = 500 })
		_, err := fx.Registry.Dispatch(context.Background(), verdictCall)
		if agent.KindOf(err) != agent.KindTransportError || len(claude.Calls()) != 0 {
			t.Fatalf("%v, claude asked %d times", err, len(claude.Calls()))
		}
	})
	t.Run("in-process plugin", func(t *testing.T) {
		claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
		fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.fixer": {Alias: "agent.fixer", Plugin: story.PluginInProcess}}, local(agent.RegistryOptions{}))
		fx.WriteSchema("verdict.json", verdictSchema)
		_ = fx.Registry.RegisterInProcess("agent.claude", claude)
		_ = fx.Registry.RegisterInProcess("agent.fixer", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{Submission: json.RawMessage(`{"verdict":"maybe"}`)}, nil
		}))
		c := verdictCall
		c.Alias = "agent.fixer"
		_, err := fx.Registry.Dispatch(context.Background(), c)
		if agent.KindOf(err) != agent.KindSchemaInvalid || len(claude.Calls()) != 0 {
			t.Fatalf("%v, claude asked %d times", err, len(claude.Calls()))
		}
		if p := agenttest.PayloadMap(fx.Sink.Events()[1]); p["substitution"] != nil {
			t.Fatalf("substitution on a non-local plugin: %v", p)
		}
	})
	t.Run("agent.claude itself local", func(t *testing.T) {
		ep := newChatEndpoint(t)
		ep.set(func(c *chatEndpoint) { c.content = `{"verdict":"maybe"}` })
		fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{
			"agent.claude": {Alias: "agent.claude", Plugin: story.PluginLocalLLM, Endpoint: ep.URL},
		}, local(agent.RegistryOptions{}))
		fx.WriteSchema("verdict.json", verdictSchema)
		c := verdictCall
		c.Alias = ""
		_, err := fx.Registry.Dispatch(context.Background(), c)
		if agent.KindOf(err) != agent.KindSchemaInvalid || len(ep.requests()) != 1 {
			t.Fatalf("%v, %d requests", err, len(ep.requests()))
		}
	})
}

func TestFallbackWithoutClaude(t *testing.T) {
	ep := newChatEndpoint(t)
	ep.set(func(c *chatEndpoint) { c.content = `{"verdict":"maybe"}` })
	fx := localFixture(t, ep.URL, nil)
	// agent.claude is declared (injected) as claude_cli; point it at a
	// binary that does not exist so the fallback itself fails.
	t.Setenv("PATH", t.TempDir())
	_, err := fx.Registry.Dispatch(context.Background(), verdictCall)
	if err == nil {
		t.Fatal("want an error")
	}
	p := agenttest.PayloadMap(fx.Sink.Events()[1])
	if sub, _ := p["substitution"].(map[string]any); sub["fallback_plugin"] != "agent.claude" {
		t.Fatalf("error payload %v", p)
	}
}

// transcriptOf returns the transcript of a result event's payload.
func transcriptOf(t *testing.T, ev agent.Event) (format string, events []map[string]any) {
	t.Helper()
	b, _ := json.Marshal(ev.Payload)
	var p struct {
		Transcript *struct {
			Format string           `json:"format"`
			Events []map[string]any `json:"events"`
		} `json:"transcript"`
	}
	if err := json.Unmarshal(b, &p); err != nil || p.Transcript == nil {
		t.Fatalf("%s payload has no transcript: %s", ev.Kind, b)
	}
	return p.Transcript.Format, p.Transcript.Events
}

// A local_llm call's result event carries its openai-chat transcript (the
// trace writer moves it to transcripts/<call_id>.jsonl): the request, the
// assistant's raw text and the result; after a fallback, the rejected
// local answer's events come first, on complete and on error. Probed:
// kitsoki-existing wrote transcripts/<id>.jsonl with these three events
// and transcript_ref for a local_llm decide; ours wrote none.
func TestLocalCallResultCarriesTranscript(t *testing.T) {
	types := func(evs []map[string]any) string {
		var out []string
		for _, e := range evs {
			out = append(out, e["type"].(string))
		}
		return strings.Join(out, ",")
	}
	fx, _ := fallbackFixture(t, `{"verdict":"approve"}`, &agenttest.StubAgent{Answer: `{"verdict":"reject"}`})
	if _, err := fx.Registry.Dispatch(context.Background(), verdictCall); err != nil {
		t.Fatal(err)
	}
	format, evs := transcriptOf(t, fx.Sink.Events()[1])
	if format != "openai-chat" || types(evs) != "request,assistant,result" {
		t.Fatalf("transcript %s %v", format, evs)
	}
	if m, _ := evs[0]["message"].(map[string]any); m["content"] != "approve?" {
		t.Fatalf("request event %v", evs[0])
	}

	// Rejected locally, then answered (or refused) by agent.claude with a
	// transcript of its own.
	withLog := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
	fx, _ = fallbackFixture(t, `{"verdict":"maybe"}`, withLog)
	withLog.Transcript = &agent.Transcript{Format: "claude-stream-json", Events: []json.RawMessage{json.RawMessage(`{"type":"result"}`)}}
	if _, err := fx.Registry.Dispatch(context.Background(), verdictCall); err != nil {
		t.Fatal(err)
	}
	format, evs = transcriptOf(t, fx.Sink.Events()[1])
	if format != "claude-stream-json" || types(evs) != "request,assistant,result,result" {
		t.Fatalf("after a fallback: transcript %s %v", format, evs)
	}
	fx, _ = fallbackFixture(t, `{"verdict":"maybe"}`, &agenttest.StubAgent{Err: agent.Errorf(agent.KindTransportError, "down")})
	if _, err := fx.Registry.Dispatch(context.Background(), verdictCall); err == nil {
		t.Fatal("want the fallback's error")
	}
	if format, evs = transcriptOf(t, fx.Sink.Events()[1]); format != "openai-chat" || types(evs) != "request,assistant,result" {
		t.Fatalf("error after a fallback: transcript %s %v", format, evs)
	}
}
