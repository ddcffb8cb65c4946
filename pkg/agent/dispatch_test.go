package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// echoFixture registers the in-process echo agent (fault f) under the
// reference alias.
func echoFixture(t *testing.T, f agenttest.Fault) *agenttest.Fixture {
	t.Helper()
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	if err := fx.Registry.RegisterInProcess(agenttest.ReferenceAlias, agenttest.EchoAgent(agenttest.ReferenceAlias, f)); err != nil {
		t.Fatal(err)
	}
	return fx
}

func TestDispatchHappyPath(t *testing.T) {
	fx := echoFixture(t, agenttest.FaultNone)
	res, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Submission) != agenttest.ReferenceSubmission {
		t.Fatalf("submission %s", res.Submission)
	}
	wantID := agentcall.LiveID("conformance", 1, "room", 0)
	if res.CallID != wantID {
		t.Fatalf("call id %s want %s", res.CallID, wantID)
	}
	if got := fx.Sink.Kinds(); strings.Join(got, ",") != "agent.call.start,agent.call.complete" {
		t.Fatalf("events %v", got)
	}
	evs := fx.Sink.Events()
	for _, e := range evs {
		if e.CallID != wantID || e.Turn != 1 || e.StatePath != "room" {
			t.Fatalf("event %s carries call_id=%s turn=%d state=%q", e.Kind, e.CallID, e.Turn, e.StatePath)
		}
	}
	start := agenttest.PayloadMap(evs[0])
	if start["verb"] != "decide" || start["agent"] != agenttest.ReferenceAlias || start["prompt"] != agenttest.ReferencePrompt {
		t.Fatalf("start payload %v", start)
	}
	// schema_present: true is upstream's plugin-path descriptor (kept for
	// trace readers of the existing engine); schema_path its legacy path's
	if in, _ := start["input"].(map[string]any); in["schema_path"] != "schemas/echo.json" || in["schema_present"] != true {
		t.Fatalf("start input %v", start["input"])
	}
	done := agenttest.PayloadMap(evs[1])
	if _, ok := done["duration_ms"]; !ok {
		t.Fatal("complete lacks duration_ms")
	}
	resp, _ := done["response"].(map[string]any)
	sub, _ := json.Marshal(resp["submission"])
	if string(sub) != agenttest.ReferenceSubmission {
		t.Fatalf("complete response.submission %s", sub)
	}
	meta, _ := done["meta"].(map[string]any)
	if meta["transport"] != "inprocess" {
		t.Fatalf("complete meta %v", done["meta"])
	}
	// Key order of the payloads is the trace's struct order.
	b, _ := json.Marshal(evs[1].Payload)
	if !regexp.MustCompile(`^\{"verb":"decide","agent":"agent.echo","duration_ms":\d+,"response":\{"submission":`).Match(b) {
		t.Fatalf("complete payload order: %s", b)
	}
	// The decoded submission is what the engine binds (bind keys are tested
	// at the engine seam, pkg/compose/engine_seam_test.go).
	if v, _ := res.Value.(map[string]any); v["echo_verb"] != "decide" {
		t.Fatalf("decoded submission %v", res.Value)
	}
	if !evs[1].TS.After(evs[0].TS) {
		t.Fatal("complete ts must follow start ts")
	}
}

func TestDispatchCallIDsAreDeterministicPerTurnAndState(t *testing.T) {
	ids := func() []string {
		fx := echoFixture(t, agenttest.FaultNone)
		var out []string
		for _, st := range []string{"room", "room", "hall", "room"} {
			c := agenttest.ReferenceCall()
			c.StatePath = st
			res, err := fx.Registry.Dispatch(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res.CallID)
		}
		return out
	}
	a, b := ids(), ids()
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("two identical runs gave different ids: %v vs %v", a, b)
	}
	want := []string{agentcall.LiveID("conformance", 1, "room", 0), agentcall.LiveID("conformance", 1, "room", 1),
		agentcall.LiveID("conformance", 1, "hall", 0), agentcall.LiveID("conformance", 1, "room", 2)}
	if strings.Join(a, ",") != strings.Join(want, ",") {
		t.Fatalf("ids %v want %v", a, want)
	}
	for _, id := range a {
		if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(id) {
			t.Fatalf("call id %q is not 16 hex", id)
		}
	}
}

func TestDispatchBuildsTheRequest(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var seen *agent.AskRequest
	world := map[string]any{"repo": "acme/infra", "nested": map[string]any{"list": []any{1, "two"}}}
	with := map[string]any{"prompt": "prompts/x.md", "args": map[string]any{"task": "t"}}
	_ = fx.Registry.RegisterInProcess("agent.spy", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		seen = req
		if req.World.Vars["nested"] == nil {
			return &agent.AskResponse{Submission: agenttest.EchoSubmission(req)}, nil
		}
		// A plugin that scribbles on its request must not reach the engine.
		req.World.Vars["repo"] = "evil"
		req.World.Vars["nested"].(map[string]any)["list"].([]any)[0] = "evil"
		req.With["args"].(map[string]any)["task"] = "evil"
		return &agent.AskResponse{Submission: agenttest.EchoSubmission(req)}, nil
	}))
	c := agenttest.ReferenceCall()
	c.Alias, c.World, c.With, c.Timeout = "agent.spy", world, with, 3*time.Minute
	before := time.Now()
	if _, err := fx.Registry.Dispatch(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	if world["repo"] != "acme/infra" || world["nested"].(map[string]any)["list"].([]any)[0] != 1 || with["args"].(map[string]any)["task"] != "t" {
		t.Fatalf("the engine's world/with changed through the request: %v %v", world, with)
	}
	if seen.Prompt != agenttest.ReferencePrompt || seen.Verb != "decide" || seen.SessionID != "conformance" || seen.Turn != 1 || seen.StatePath != "room" {
		t.Fatalf("request header %+v", seen)
	}
	var sch map[string]any
	if err := json.Unmarshal(seen.Schema, &sch); err != nil || sch["type"] != "object" {
		t.Fatalf("request schema %s (%v)", seen.Schema, err)
	}
	// Between 3m after the dispatch began and 3m after it returned (the
	// second of slack is the wire format's rounding), however slow the call.
	if seen.Deadline.Before(before.Add(3*time.Minute-time.Second)) || seen.Deadline.After(after.Add(3*time.Minute+time.Second)) {
		t.Fatalf("soft deadline %v after start (the call took %v), want 3m after it", seen.Deadline.Sub(before), after.Sub(before))
	}
	b, _ := json.Marshal(seen)
	if !strings.Contains(string(b), `"world":{"vars":{`) || !strings.Contains(string(b), `"call_id":"`+seen.CallID+`"`) {
		t.Fatalf("wire request %s", b)
	}
	// An empty world is {"vars":{}}, never null.
	c.World = nil
	if _, err := fx.Registry.Dispatch(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(seen.World); string(b) != `{"vars":{}}` {
		t.Fatalf("empty world %s", b)
	}
}

func TestResolveAliases(t *testing.T) {
	plugins := map[string]*story.AgentPlugin{
		"agent.fixer": {Alias: "agent.fixer", Plugin: story.PluginInProcess},
	}
	fx := agenttest.NewFixture(t, plugins, agent.RegistryOptions{})
	// Unknown alias: an error naming it, no events, no fallback.
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.nope", Verb: "ask"})
	if err == nil || !strings.Contains(err.Error(), `"agent.nope"`) || !strings.Contains(err.Error(), "agent_plugins") {
		t.Fatalf("unknown alias: %v", err)
	}
	if len(fx.Sink.Events()) != 0 {
		t.Fatal("an unresolvable alias must not produce events")
	}
	// Declared inprocess alias without RegisterInProcess.
	_, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.fixer", Verb: "ask"})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "agent.fixer") ||
		!strings.Contains(err.Error(), `RegisterInProcess("agent.fixer"`) {
		t.Fatalf("unregistered inprocess: %v", err)
	}
	if u := fx.Registry.Unregistered(); strings.Join(u, ",") != "agent.fixer" {
		t.Fatalf("unregistered %v", u)
	}
	// Empty alias is agent.claude.
	var got string
	_ = fx.Registry.RegisterInProcess(story.DefaultAgentAlias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		got = "claude stub"
		return &agent.AskResponse{Submission: json.RawMessage(`"hi"`)}, nil
	}))
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Verb: "ask", Prompt: "hi"})
	if err != nil || got != "claude stub" || res.Alias != story.DefaultAgentAlias {
		t.Fatalf("empty alias: %v %q %+v", err, got, res)
	}
	_ = fx.Registry.RegisterInProcess("agent.fixer", agenttest.EchoAgent("agent.fixer", agenttest.FaultNone))
	if u := fx.Registry.Unregistered(); len(u) != 0 {
		t.Fatalf("unregistered after RegisterInProcess %v", u)
	}
	if a := fx.Registry.Aliases(); strings.Join(a, ",") != "agent.claude,agent.fixer" {
		t.Fatalf("aliases %v", a)
	}
}

func TestMissingBuilderFailsAtDispatchNotAtLoad(t *testing.T) {
	plugins := map[string]*story.AgentPlugin{
		"agent.local": {Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: "qwen"},
	}
	// builtin.local_llm lives in pkg/agent/localllm: a registry built
	// without its builder says how to wire it.
	fx := agenttest.NewFixture(t, plugins, agent.RegistryOptions{})
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide"})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), `plugin type "builtin.local_llm" is not available in this build; builtin.local_llm is wired by the composition root`) ||
		!strings.Contains(err.Error(), "localllm.New") {
		t.Fatalf("missing builder: %v", err)
	}
	// A nil builder removes a type from this build.
	fx = agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.x": {Alias: "agent.x", Plugin: story.PluginMCPHTTP, Endpoint: "http://127.0.0.1:1/mcp"}},
		agent.RegistryOptions{Builders: map[string]agent.Builder{story.PluginMCPHTTP: nil}})
	_, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "decide"})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "declare the alias with another plugin") {
		t.Fatalf("removed builder: %v", err)
	}
	// The seam: a builder keyed by plugin type.
	var built *story.AgentPlugin
	fx2 := agenttest.NewFixture(t, plugins, agent.RegistryOptions{Builders: map[string]agent.Builder{
		story.PluginLocalLLM: func(p *story.AgentPlugin, bc agent.BuildContext) (agent.Transport, error) {
			built = p
			if bc.StoryDir == "" || bc.Logger == nil || bc.Redact == nil {
				t.Error("incomplete BuildContext")
			}
			return agent.NewInProcess(p.Alias, agenttest.EchoAgent(p.Alias, agenttest.FaultNone)), nil
		},
	}})
	if built == nil || built.Model != "qwen" {
		t.Fatal("local_llm builder not called with the declaration")
	}
	c := agenttest.ReferenceCall()
	c.Alias = "agent.local"
	if _, err := fx2.Registry.Dispatch(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	// A builder error fails the registry and names the alias.
	_, err = agent.NewRegistryFromPlugins(plugins, agent.RegistryOptions{Builders: map[string]agent.Builder{
		story.PluginLocalLLM: func(*story.AgentPlugin, agent.BuildContext) (agent.Transport, error) {
			return nil, errors.New("endpoint is not a URL")
		},
	}})
	if err == nil || !strings.Contains(err.Error(), "agent_plugins.agent.local: endpoint is not a URL") {
		t.Fatalf("builder error: %v", err)
	}
	// A builder that already names the alias is not prefixed twice.
	_, err = agent.NewRegistryFromPlugins(plugins, agent.RegistryOptions{Builders: map[string]agent.Builder{
		story.PluginLocalLLM: func(p *story.AgentPlugin, _ agent.BuildContext) (agent.Transport, error) {
			return nil, errors.New("agent_plugins." + p.Alias + ": requires model: or endpoint:")
		},
	}})
	if err == nil || err.Error() != "agent_plugins.agent.local: requires model: or endpoint:" {
		t.Fatalf("builder error prefix: %v", err)
	}
}

func TestDispatchFaults(t *testing.T) {
	for fault, kind := range agenttest.Faults() {
		t.Run(string(fault), func(t *testing.T) {
			fx := echoFixture(t, fault)
			c := agenttest.ReferenceCall()
			c.Timeout = time.Minute // only a hang guard: the other faults answer at once
			if kind == agent.KindDeadlineExceeded {
				c.Timeout = 50 * time.Millisecond // hang and late wait for it
			}
			res, err := fx.Registry.Dispatch(context.Background(), c)
			if res != nil || agent.KindOf(err) != kind {
				t.Fatalf("got %v (%v), want kind %s", err, res, kind)
			}
			if got := strings.Join(fx.Sink.Kinds(), ","); got != "agent.call.start,agent.call.error" {
				t.Fatalf("events %s (no sub-event may land on a failure)", got)
			}
			p := agenttest.PayloadMap(fx.Sink.Events()[1])
			if p["error"] != err.Error() || !strings.HasPrefix(err.Error(), "agent: "+string(kind)+": ") {
				t.Fatalf("error payload %v vs %v", p["error"], err)
			}
		})
	}
}

func TestSchemaInvalidDetail(t *testing.T) {
	cases := map[agenttest.Fault]*regexp.Regexp{
		agenttest.FaultSchemaInvalid: regexp.MustCompile(`^agent: schema_invalid: submission does not satisfy schemas/echo\.json: .*(required|/echo_verb: type)`),
		agenttest.FaultMalformed:     regexp.MustCompile(`^agent: schema_invalid: submission is not valid JSON: .*\(raw: {"echo_verb": "decide"\)$`),
	}
	for f, re := range cases {
		fx := echoFixture(t, f)
		_, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
		if err == nil || !re.MatchString(err.Error()) {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Pointer and constraint both appear for a nested failure.
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	p := fx.WriteSchema("v.json", `{"type":"object","properties":{"verdict":{"enum":["go","stop"]}},"required":["verdict"]}`)
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(`{"verdict":"maybe"}`)}, nil
	}))
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "decide", SchemaPath: p})
	if err == nil || !strings.Contains(err.Error(), "/verdict") || !strings.Contains(err.Error(), "enum") {
		t.Fatalf("nested failure: %v", err)
	}
	// A schema that does not compile is the call's schema_invalid, and the
	// plugin is never asked.
	var asked atomic.Bool
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		asked.Store(true)
		return &agent.AskResponse{}, nil
	}))
	_, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "decide", SchemaPath: "schemas/missing.json"})
	if agent.KindOf(err) != agent.KindSchemaInvalid || asked.Load() {
		t.Fatalf("missing schema: %v asked=%v", err, asked.Load())
	}
}

func TestNoSchemaBindsRawAnswer(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	answer := json.RawMessage(`not json at all`)
	_ = fx.Registry.RegisterInProcess("agent.free", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.free", Verb: "converse"})
	if err != nil || res.Value != "not json at all" {
		t.Fatalf("%v %#v", err, res)
	}
	answer = json.RawMessage(`{"n": 3, "f": 1.5}`)
	res, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.free", Verb: "converse"})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Value.(map[string]any)
	if m["n"] != 3 || m["f"] != 1.5 || string(res.Submission) != `{"n": 3, "f": 1.5}` {
		t.Fatalf("value %#v submission %s", m, res.Submission)
	}
	answer = nil
	res, err = fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.free", Verb: "converse"})
	if err != nil || res.Value != nil {
		t.Fatalf("empty answer: %v %#v", err, res)
	}
}

func TestSubEventsLandInsideTheCallWindow(t *testing.T) {
	fx := echoFixture(t, agenttest.FaultSubEvents)
	res, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
	if err != nil {
		t.Fatal(err)
	}
	evs := fx.Sink.Events()
	kinds := fx.Sink.Kinds()
	if strings.Join(kinds, ",") != "agent.call.start,agent.echo.tool,agent.echo.note,agent.call.complete" {
		t.Fatalf("events %v", kinds)
	}
	for i := 1; i < len(evs); i++ {
		if !evs[i].TS.After(evs[i-1].TS) {
			t.Fatalf("event %d ts %v not after %v", i, evs[i].TS, evs[i-1].TS)
		}
	}
	for _, e := range evs[1:3] {
		if e.TS.Year() == 1999 {
			t.Fatal("the plugin's claimed ts must be discarded")
		}
		if e.CallID != res.CallID {
			t.Fatalf("sub-event call_id %s", e.CallID)
		}
		if string(e.Payload.(json.RawMessage)) != `{"tool":"bash","n":1}` {
			t.Fatalf("sub-event payload not verbatim: %s", e.Payload)
		}
	}
	if len(res.SubEvents) != 2 || !res.SubEvents[0].TS.Equal(evs[1].TS) {
		t.Fatalf("result sub-events %+v", res.SubEvents)
	}
}

// A sub-event after a schema failure must not land either (upstream leaks
// them; the seed says all-or-nothing).
func TestSubEventsDoNotLandOnSchemaFailure(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	_ = fx.Registry.RegisterInProcess(agenttest.ReferenceAlias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		r := agenttest.EchoResponse(agenttest.ReferenceAlias, agenttest.FaultSubEvents, req, "inprocess")
		r.Submission = json.RawMessage(`{}`)
		return r, nil
	}))
	_, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
	if agent.KindOf(err) != agent.KindSchemaInvalid {
		t.Fatal(err)
	}
	if got := strings.Join(fx.Sink.Kinds(), ","); got != "agent.call.start,agent.call.error" {
		t.Fatalf("events %s", got)
	}
}

func TestHardDeadlineDiscardsLateAnswer(t *testing.T) {
	release := make(chan struct{})
	var answered atomic.Bool
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{Timeout: 30 * time.Millisecond})
	_ = fx.Registry.RegisterInProcess("agent.deaf", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		<-release // ignores ctx entirely
		answered.Store(true)
		return &agent.AskResponse{Submission: json.RawMessage(`{"late":true}`)}, nil
	}))
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.deaf", Verb: "ask"})
	close(release)
	if agent.KindOf(err) != agent.KindDeadlineExceeded {
		t.Fatalf("want deadline_exceeded, got %v", err)
	}
	if strings.Join(fx.Sink.Kinds(), ",") != "agent.call.start,agent.call.error" {
		t.Fatalf("events %v", fx.Sink.Kinds())
	}
	// A per-call Timeout overrides the registry default: the agent answers
	// only when its deadline is the call's minute, not the registry's 30ms
	// (read from its context, so no clock decides the verdict).
	_ = fx.Registry.RegisterInProcess("agent.slow", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) > 30*time.Second {
			return &agent.AskResponse{}, nil
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.slow", Verb: "ask", Timeout: time.Minute}); err != nil {
		t.Fatalf("per-call timeout ignored: %v", err)
	}
	// Cancelling the parent (Ctrl-C) is deadline_exceeded too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fx.Registry.Dispatch(ctx, agent.Call{Alias: "agent.slow", Verb: "ask"}); agent.KindOf(err) != agent.KindDeadlineExceeded {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestPanickingAgentIsPluginCrash(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	_ = fx.Registry.RegisterInProcess("agent.bad", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		panic("nil map")
	}))
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.bad", Verb: "ask"})
	if agent.KindOf(err) != agent.KindPluginCrash || !strings.Contains(err.Error(), "agent.bad: the agent transport panicked: nil map (a kitsoki bug: please report it") {
		t.Fatal(err)
	}
}

func TestSinkFailures(t *testing.T) {
	fx := echoFixture(t, agenttest.FaultNone)
	fx.Sink.Fail = map[string]error{agent.EventCallStart: errors.New("disk full")}
	var asked atomic.Bool
	_ = fx.Registry.RegisterInProcess("agent.x", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		asked.Store(true)
		return &agent.AskResponse{}, nil
	}))
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "ask"})
	if err == nil || !strings.Contains(err.Error(), "disk full") || asked.Load() {
		t.Fatalf("start sink failure: %v asked=%v", err, asked.Load())
	}
	fx.Sink.Fail = map[string]error{agent.EventCallComplete: errors.New("disk full")}
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "ask"}); err == nil || !strings.Contains(err.Error(), "agent.x") {
		t.Fatalf("complete sink failure: %v", err)
	}
}

type closeCounter struct {
	agent.Transport
	n   *atomic.Int32
	err error
}

func (c closeCounter) Close() error { c.n.Add(1); return c.err }

func TestRegistryClose(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var n atomic.Int32
	echo := agent.NewInProcess("a", agenttest.EchoAgent("a", ""))
	_ = fx.Registry.Register("agent.a", closeCounter{echo, &n, nil})
	_ = fx.Registry.Register("agent.b", closeCounter{echo, &n, errors.New("stuck")})
	// Replacing a transport closes the old one.
	_ = fx.Registry.Register("agent.c", closeCounter{echo, &n, nil})
	_ = fx.Registry.Register("agent.c", closeCounter{echo, &n, nil})
	if n.Load() != 1 {
		t.Fatalf("replace closed %d", n.Load())
	}
	err := fx.Registry.Close()
	if n.Load() != 4 || err == nil || !strings.Contains(err.Error(), "close agent.b: stuck") {
		t.Fatalf("close: n=%d err=%v", n.Load(), err)
	}
	if err := fx.Registry.Close(); err != nil || n.Load() != 4 {
		t.Fatal("Close must be idempotent")
	}
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.a"}); err == nil {
		t.Fatal("dispatch after close must fail")
	}
}

func TestConcurrentSessions(t *testing.T) {
	fx := echoFixture(t, agenttest.FaultSubEvents)
	var wg sync.WaitGroup
	ids := make([][]string, 2)
	for s := range 2 {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			for range 20 {
				c := agenttest.ReferenceCall()
				c.SessionID = []string{"s1", "s2"}[s]
				res, err := fx.Registry.Dispatch(context.Background(), c)
				if err != nil {
					t.Error(err)
					return
				}
				ids[s] = append(ids[s], res.CallID)
			}
		}(s)
	}
	wg.Wait()
	if strings.Join(ids[0], ",") != strings.Join(ids[1], ",") {
		t.Fatal("each session numbers its own calls")
	}
	if len(fx.Sink.Events()) != 2*20*4 {
		t.Fatalf("events %d", len(fx.Sink.Events()))
	}
}

func TestSchemaRefsStayInsideSchemasDir(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	fx.WriteSchema("common/verdict.json", `{"type":"string","enum":["go","stop"]}`)
	good := fx.WriteSchema("ref.json", `{"type":"object","required":["verdict"],"properties":{"verdict":{"$ref":"common/verdict.json"}}}`)
	outside := filepath.Join(filepath.Dir(fx.Dir), "outside.json")
	if err := os.WriteFile(outside, []byte(`{"type":"string"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	escape := fx.WriteSchema("escape.json", `{"type":"object","properties":{"v":{"$ref":"../../outside.json"}}}`)
	answer := `{"verdict":"go"}`
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(answer)}, nil
	}))
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "decide", SchemaPath: good}); err != nil {
		t.Fatalf("relative $ref inside schemas/: %v", err)
	}
	answer = `{"verdict":"maybe"}`
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "decide", SchemaPath: good}); agent.KindOf(err) != agent.KindSchemaInvalid {
		t.Fatalf("relative $ref must validate: %v", err)
	}
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "decide", SchemaPath: escape})
	if agent.KindOf(err) != agent.KindSchemaInvalid || !strings.Contains(err.Error(), "schema compilation failed") {
		t.Fatalf("escaping $ref: %v", err)
	}
}

func TestSubEventKindRules(t *testing.T) {
	cases := []struct {
		alias, kind string
		ok          bool
	}{
		{"agent.x", "agent.x.tool", true},
		{"agent.x", "agent.x.", false},
		{"agent.x", "agent.xy.tool", false},
		{"agent.x", "agent.x", false},
		{"agent.call", "agent.call.complete", false},
		{"agent.call", "agent.call.tool", true},
	}
	for _, c := range cases {
		fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
		_ = fx.Registry.RegisterInProcess(c.alias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{SubEvents: []agent.SubEvent{{Kind: c.kind, CallID: req.CallID, Turn: 99, StatePath: "elsewhere"}}}, nil
		}))
		_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: c.alias, Verb: "task", Turn: 3, StatePath: "fix"})
		if c.ok != (err == nil) {
			t.Errorf("%s %q: err=%v", c.alias, c.kind, err)
			continue
		}
		if !c.ok && agent.KindOf(err) != agent.KindSubEventNamespaceViolation {
			t.Errorf("%s %q: kind %s", c.alias, c.kind, agent.KindOf(err))
		}
		if c.ok {
			se := fx.Sink.Events()[1]
			if se.Turn != 3 || se.StatePath != "fix" {
				t.Errorf("sub-event must carry the call's turn/state, got %d %q", se.Turn, se.StatePath)
			}
		}
	}
}
