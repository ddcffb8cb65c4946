package agent

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// eventLog is a Sink the test reads.
type eventLog struct {
	mu  sync.Mutex
	evs []Event
}

func (l *eventLog) Emit(ev Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, ev)
	return nil
}

func (l *eventLog) last(kind string) map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range slices.Backward(l.evs) {
		if v.Kind == kind {
			m, _ := jsonvalue.RoundTrip(v.Payload).(map[string]any)
			return m
		}
	}
	return nil
}

func notesRegistry(t *testing.T, p *story.AgentPlugin) (*Registry, *eventLog) {
	t.Helper()
	log := &eventLog{}
	reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{p.Alias: p}, RegistryOptions{StoryDir: t.TempDir(), AppID: "notes", Sink: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return reg, log
}

func notesCall(alias, fault string, turn int64) Call {
	return Call{Alias: alias, Verb: "decide", SessionID: "s", Turn: turn, StatePath: "room",
		Prompt: "which is the best option for this context?", With: map[string]any{"fault": fault, "alias": alias}}
}

// The MCP session that served a call is on its agent.call.complete (and
// agent.call.error), so a trace can be matched with the server's logs.
func TestMCPSessionIDIsTraced(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{})
	reg, log := notesRegistry(t, &story.AgentPlugin{Alias: "agent.remote", Plugin: story.PluginMCPHTTP, Endpoint: f.ts.URL})
	if _, err := reg.Dispatch(context.Background(), notesCall("agent.remote", "", 1)); err != nil {
		t.Fatal(err)
	}
	hs := f.headers()
	if len(hs) != 1 || hs[0].Get("Mcp-Session-Id") == "" {
		t.Fatalf("the server gave no session id: %v", hs)
	}
	if got := log.last(EventCallComplete)["mcp_session_id"]; got != hs[0].Get("Mcp-Session-Id") {
		t.Fatalf("mcp_session_id %v, server's %q", got, hs[0].Get("Mcp-Session-Id"))
	}
	if _, err := reg.Dispatch(context.Background(), notesCall("agent.remote", "is_error", 2)); err == nil {
		t.Fatal("want the tool error")
	}
	if got := log.last(EventCallError)["mcp_session_id"]; got != hs[0].Get("Mcp-Session-Id") {
		t.Fatalf("error event mcp_session_id %v", got)
	}
}

// A subprocess plugin's second answer reaches the trace on the next call's
// event, naming the plugin; the next call binds its own answer.
func TestStrayAnswerIsTraced(t *testing.T) {
	bin := BuildTestPlugin(t, "echoagent")
	reg, log := notesRegistry(t, &story.AgentPlugin{Alias: "agent.echo", Plugin: story.PluginSubprocess, Command: bin})
	if _, err := reg.Dispatch(context.Background(), notesCall("agent.echo", "dup_id", 1)); err != nil {
		t.Fatal(err)
	}
	c := notesCall("agent.echo", "", 2)
	c.Prompt = "a different prompt"
	res, err := reg.Dispatch(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Submission), "a different prompt") {
		t.Fatalf("the second call bound %s", res.Submission)
	}
	stray, _ := log.last(EventCallComplete)["stray"].([]any)
	if len(stray) != 1 || !strings.Contains(stray[0].(string), "subprocess plugin agent.echo") {
		t.Fatalf("stray %v", stray)
	}
	if _, ok := log.last(EventCallComplete)["mcp_session_id"]; ok {
		t.Fatal("a subprocess call has no MCP session")
	}
}
