package plugin

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// seenAgent records the prompts (and aliases) it receives.
type seenAgent struct {
	mu      sync.Mutex
	prompts []string
	meta    map[string]any
}

func (a *seenAgent) Ask(_ context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
	a.mu.Lock()
	a.prompts = append(a.prompts, req.Prompt)
	a.mu.Unlock()
	return &agent.AskResponse{Submission: []byte(`{"ok":true}`), Meta: a.meta}, nil
}

func newHookedRegistry(t *testing.T, chain *Chain) (*agent.Registry, *agenttest.RecordingSink, map[string]*seenAgent) {
	t.Helper()
	sink := &agenttest.RecordingSink{}
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.x": {Alias: "agent.x", Plugin: story.PluginInProcess},
		"agent.y": {Alias: "agent.y", Plugin: story.PluginInProcess},
	}, agent.RegistryOptions{AppID: "hooks", StoryDir: t.TempDir(), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	agents := map[string]*seenAgent{"agent.x": {}, "agent.y": {}}
	for alias, a := range agents {
		if err := reg.RegisterInProcess(alias, a); err != nil {
			t.Fatal(err)
		}
	}
	reg.SetHooks(chain.AgentHooks())
	return reg, sink, agents
}

func TestDispatchRecordsThePostHookPromptByteForByte(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "config:\n  redact: {patterns: [\"sk-[a-z0-9]{6,}\"]}\n")
	externalPlugin(t, root, "ext", []string{"rewrite"}, onErrorVeto, 60000, pointPreDispatch)
	a := assemble(t, root)
	chain := a.NewChain()
	defer chain.Close()
	reg, sink, agents := newHookedRegistry(t, chain)

	_, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "ask", SessionID: "s", Turn: 1, StatePath: "st",
		Prompt: "use key sk-abcdef123\tplease ünï"})
	if err != nil {
		t.Fatal(err)
	}
	got := agents["agent.x"].prompts
	want := "use key [redacted]\tplease ünï [checked by testhook]"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("agent received %q, want %q", got, want)
	}
	kinds := strings.Join(sink.Kinds(), ",")
	if kinds != "hook.rewrote,hook.rewrote,agent.call.start,agent.call.complete" {
		t.Fatalf("events = %s", kinds)
	}
	var start agent.Event
	for _, ev := range sink.Events() {
		if ev.Kind == agent.EventCallStart {
			start = ev
		}
	}
	if p := start.Payload.(*agent.CallStartPayload).Prompt; p != got[0] {
		t.Fatalf("agent.call.start prompt %q != what the plugin received %q", p, got[0])
	}
	first := agenttest.PayloadMap(sink.Events()[0])
	if first["plugin"] != "ext" || first["point"] != "agent/pre-dispatch" {
		t.Fatalf("first hook event = %v", first)
	}
}

func TestDispatchHookVetoAndAliasRewrite(t *testing.T) {
	veto := newChain(Registration{Point: pointPreDispatch, PluginID: "policy", OnError: onErrorContinue,
		Handler: HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			return Result{Outcome: outcomeHalt, Reason: "not on fridays"}, nil
		})})
	reg, sink, agents := newHookedRegistry(t, veto)
	_, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "ask", Turn: 1, StatePath: "st", Prompt: "p"})
	var ae *agent.AskError
	if !errors.As(err, &ae) || ae.Kind != agent.KindHookVetoed || !strings.Contains(ae.Error(), "policy") || !strings.Contains(ae.Error(), "not on fridays") {
		t.Fatalf("err = %v", err)
	}
	if len(agents["agent.x"].prompts) != 0 || strings.Join(sink.Kinds(), ",") != "hook.halted" {
		t.Fatalf("vetoed call reached the agent or was reported: %v", sink.Kinds())
	}

	reroute := newChain(Registration{Point: pointPreDispatch, PluginID: "router", OnError: onErrorContinue,
		Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			return Result{Outcome: outcomeContinue, Payload: Payload{"alias": "agent.y", "with": map[string]any{"k": "v2"}}}, nil
		})})
	reg, _, agents = newHookedRegistry(t, reroute)
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.x", Verb: "ask", Turn: 1, StatePath: "st", Prompt: "p", With: map[string]any{"k": "v"}})
	if err != nil || res.Alias != "agent.y" || len(agents["agent.y"].prompts) != 1 || len(agents["agent.x"].prompts) != 0 {
		t.Fatalf("alias rewrite: res %+v err %v", res, err)
	}
}

func TestDispatchPostReturnHaltAndBudget(t *testing.T) {
	root := t.TempDir()
	prof := writeFile(t, filepath.Join(root, "p.yaml"), "config:\n  budget: {max_cost_usd: 0.5}\n")
	a, err := Assemble(Options{StoryDir: root, ProfilePath: prof, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	chain := a.NewChain()
	defer chain.Close()
	reg, sink, agents := newHookedRegistry(t, chain)
	agents["agent.x"].meta = map[string]any{"cost_usd": 0.3}
	call := agent.Call{Alias: "agent.x", Verb: "ask", Turn: 1, StatePath: "st", Prompt: "p"}
	for i := range 2 {
		if _, err := reg.Dispatch(context.Background(), call); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	_, err = reg.Dispatch(context.Background(), call)
	if agent.KindOf(err) != agent.KindHookVetoed || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("third call: %v", err)
	}
	if n := len(agents["agent.x"].prompts); n != 2 {
		t.Fatalf("agent called %d times", n)
	}
	_ = sink

	halt := newChain(Registration{Point: pointPostReturn, PluginID: "auditor", OnError: onErrorContinue,
		Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			if sub, _ := p["submission"].(map[string]any); sub["ok"] == true {
				return Result{Outcome: outcomeHalt, Reason: "answer rejected by audit"}, nil
			}
			return Result{Outcome: outcomeContinue}, nil
		})})
	reg, sink, _ = newHookedRegistry(t, halt)
	_, err = reg.Dispatch(context.Background(), call)
	if agent.KindOf(err) != agent.KindHookVetoed || !strings.Contains(err.Error(), "answer rejected by audit") {
		t.Fatalf("post-return: %v", err)
	}
	if k := strings.Join(sink.Kinds(), ","); k != "agent.call.start,hook.halted,agent.call.error" {
		t.Fatalf("post-return events = %s", k)
	}
}

func TestAssemblyRegistryRefusesDisabledAliases(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: [transport.claude_cli]\n")
	st := &story.Story{AgentPlugins: map[string]*story.AgentPlugin{
		"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, Injected: true},
		"agent.x":      {Alias: "agent.x", Plugin: story.PluginInProcess},
	}}
	a, err := Assemble(Options{StoryDir: root, Story: st, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := a.NewRegistry(st, agent.RegistryOptions{AppID: "r", StoryDir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	_, err = reg.Dispatch(context.Background(), agent.Call{Verb: "ask", Turn: 1, StatePath: "s", Prompt: "p"})
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "agent.claude is disabled in the plugin assembly (requires transport.claude_cli, which is disabled)") {
		t.Fatalf("err = %v", err)
	}
}
