package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/agenttest"
	"kitsoki/pkg/agent/internal/testplugins/mcpecho"
	"kitsoki/pkg/story"
)

// claudeStub is the in-process agent.claude the fallback goes to.
type claudeStub struct {
	mu     sync.Mutex
	reqs   []agent.AskRequest
	answer string
	err    error
	subs   func(req *agent.AskRequest) []agent.SubEvent
}

func (c *claudeStub) Ask(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, *req)
	c.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	resp := &agent.AskResponse{Submission: json.RawMessage(c.answer), Meta: map[string]any{"model": "claude-stub", "cost_usd": 0.01}}
	if c.subs != nil {
		resp.SubEvents = c.subs(req)
	}
	return resp, nil
}

func (c *claudeStub) calls() []agent.AskRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]agent.AskRequest(nil), c.reqs...)
}

// fallbackFixture: agent.local (endpoint mode, against a chat stand-in
// answering localAnswer) and an in-process agent.claude.
func fallbackFixture(t *testing.T, localAnswer string, claude *claudeStub) (*agenttest.Fixture, *chatEndpoint) {
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
	claude := &claudeStub{answer: `{"verdict":"reject"}`}
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
	calls := claude.calls()
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
	p := evs[1].PayloadMap()
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
		claude   *claudeStub
		wantKind agent.Kind
	}{
		"claude schema_invalid too": {&claudeStub{answer: `{"verdict":"perhaps"}`}, agent.KindSchemaInvalid},
		"claude transport error":    {&claudeStub{err: agent.Errorf(agent.KindTransportError, "claude: unreachable")}, agent.KindTransportError},
		"claude plain error":        {&claudeStub{err: errors.New("boom")}, agent.KindPluginCrash},
		"claude sub-event outside its namespace": {&claudeStub{answer: `{"verdict":"reject"}`, subs: func(req *agent.AskRequest) []agent.SubEvent {
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
			if len(tc.claude.calls()) != 1 {
				t.Fatalf("agent.claude asked %d times, want exactly once", len(tc.claude.calls()))
			}
			evs := fx.Sink.Events()
			if k := fx.Sink.Kinds(); strings.Join(k, ",") != "agent.call.start,agent.call.error" {
				t.Fatalf("events %v", k)
			}
			p := evs[1].PayloadMap()
			sub, _ := p["substitution"].(map[string]any)
			if sub["original_plugin"] != "agent.local" || sub["fallback_plugin"] != "agent.claude" || sub["reason"] != "schema_invalid" {
				t.Fatalf("error payload %v", p)
			}
		})
	}
}

func TestFallbackSubEventsUnderClaudesNamespace(t *testing.T) {
	claude := &claudeStub{answer: `{"verdict":"reject"}`, subs: func(req *agent.AskRequest) []agent.SubEvent {
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
		claude := &claudeStub{answer: `{"verdict":"reject"}`}
		fx, _ := fallbackFixture(t, `{"verdict":"approve"}`, claude)
		res, err := fx.Registry.Dispatch(context.Background(), verdictCall)
		if err != nil || res.Substitution != nil || res.Meta["fallback_of"] != nil || len(claude.calls()) != 0 {
			t.Fatalf("%v %+v %d", err, res, len(claude.calls()))
		}
	})
	t.Run("local transport error", func(t *testing.T) {
		claude := &claudeStub{answer: `{"verdict":"reject"}`}
		fx, ep := fallbackFixture(t, `{}`, claude)
		ep.set(func(c *chatEndpoint) { c.status = 500 })
		_, err := fx.Registry.Dispatch(context.Background(), verdictCall)
		if agent.KindOf(err) != agent.KindTransportError || len(claude.calls()) != 0 {
			t.Fatalf("%v, claude asked %d times", err, len(claude.calls()))
		}
	})
	t.Run("in-process plugin", func(t *testing.T) {
		claude := &claudeStub{answer: `{"verdict":"reject"}`}
		fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.fixer": {Alias: "agent.fixer", Plugin: story.PluginInProcess}}, agent.RegistryOptions{})
		fx.WriteSchema("verdict.json", verdictSchema)
		_ = fx.Registry.RegisterInProcess("agent.claude", claude)
		_ = fx.Registry.RegisterInProcess("agent.fixer", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{Submission: json.RawMessage(`{"verdict":"maybe"}`)}, nil
		}))
		c := verdictCall
		c.Alias = "agent.fixer"
		_, err := fx.Registry.Dispatch(context.Background(), c)
		if agent.KindOf(err) != agent.KindSchemaInvalid || len(claude.calls()) != 0 {
			t.Fatalf("%v, claude asked %d times", err, len(claude.calls()))
		}
		if p := fx.Sink.Events()[1].PayloadMap(); p["substitution"] != nil {
			t.Fatalf("substitution on a non-local plugin: %v", p)
		}
	})
	t.Run("agent.claude itself local", func(t *testing.T) {
		ep := newChatEndpoint(t)
		ep.set(func(c *chatEndpoint) { c.content = `{"verdict":"maybe"}` })
		fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{
			"agent.claude": {Alias: "agent.claude", Plugin: story.PluginLocalLLM, Endpoint: ep.URL},
		}, agent.RegistryOptions{})
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
	p := fx.Sink.Events()[1].PayloadMap()
	if sub, _ := p["substitution"].(map[string]any); sub["fallback_plugin"] != "agent.claude" {
		t.Fatalf("error payload %v", p)
	}
}

// External plugins fail hard on schema_invalid: subprocess and mcp_http
// answers are never substituted.
func TestNoFallbackForExternalPlugins(t *testing.T) {
	agent.CheckNoChildren(t)
	echoBin := agent.BuildTestPlugin(t, "echoagent")
	srv := mcpecho.New(mcpecho.Options{})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	t.Cleanup(srv.Stop)
	for name, p := range map[string]*story.AgentPlugin{
		"subprocess": {Alias: "agent.ext", Plugin: story.PluginSubprocess, Command: echoBin},
		"mcp_http":   {Alias: "agent.ext", Plugin: story.PluginMCPHTTP, Endpoint: ts.URL + "/mcp"},
	} {
		t.Run(name, func(t *testing.T) {
			claude := &claudeStub{answer: `{"verdict":"reject"}`}
			fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.ext": p}, agent.RegistryOptions{})
			fx.WriteSchema("verdict.json", verdictSchema)
			_ = fx.Registry.RegisterInProcess(story.DefaultAgentAlias, claude)
			c := verdictCall
			c.Alias = "agent.ext"
			_, err := fx.Registry.Dispatch(context.Background(), c)
			if agent.KindOf(err) != agent.KindSchemaInvalid || len(claude.calls()) != 0 {
				t.Fatalf("%v, agent.claude asked %d times", err, len(claude.calls()))
			}
			if p := fx.Sink.Events()[1].PayloadMap(); p["substitution"] != nil {
				t.Fatalf("substitution recorded: %v", p)
			}
		})
	}
}
