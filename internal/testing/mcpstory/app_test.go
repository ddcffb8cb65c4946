package mcpstory

import (
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

func TestAppDeclaresEachAliasOnceAndCallsInOrder(t *testing.T) {
	got := App("two",
		Call{Alias: "agent.a", Endpoint: "http://127.0.0.1:1/a", Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/v.json"},
		Call{Alias: "agent.a", Endpoint: "http://127.0.0.1:1/ignored", Host: "host.agent.ask", Prompt: "hi"},
		Call{Alias: "agent.b", Endpoint: "http://127.0.0.1:1/b", Host: "host.agent.ask", Prompt: `say "x"`},
	)
	want := `app: { id: two, version: 0.1.0 }
agent_plugins:
  agent.a:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/a
  agent.b:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/b
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.a
        with: { prompt: "judge", schema: schemas/v.json }
      - invoke: host.agent.ask
        agent: agent.a
        with: { prompt: "hi" }
      - invoke: host.agent.ask
        agent: agent.b
        with: { prompt: "say \"x\"" }
    terminal: true
`
	if got != want {
		t.Fatalf("App:\n%s\nwant:\n%s", got, want)
	}
}

// The YAML loads as a story without an error.
func TestAppLoads(t *testing.T) {
	st, ds := lint.LoadSource("app.yaml", []byte(App("ok",
		Call{Alias: "agent.remote", Endpoint: "http://127.0.0.1:1/mcp", Host: "host.agent.ask", Prompt: "hi"})), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatalf("load: %v", ds)
	}
	if p := st.AgentPlugins["agent.remote"]; p == nil {
		t.Fatalf("no agent.remote alias: %#v", st.AgentPlugins)
	}
}
