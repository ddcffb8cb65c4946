package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/internal/agentcall"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// An embedder that has loaded a story builds its registry from the story's
// agent_plugins: declarations; the story's builtin.inprocess agents are
// then registered in Go before the run.
func ExampleNewRegistry() {
	st, ds := lint.LoadSource("app.yaml", []byte(`app: { id: embedded, version: 0.1.0 }
agent_plugins:
  agent.rules:
    plugin: builtin.inprocess
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.rules
        with: { prompt: "ready?" }
    terminal: true
`), story.Options{})
	if st == nil {
		fmt.Println(ds)
		return
	}
	reg, err := agent.NewRegistry(st, agent.RegistryOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	fmt.Println("waiting for Go agents:", reg.Unregistered())
	_ = reg.RegisterInProcess("agent.rules", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(`"yes"`)}, nil
	}))
	fmt.Println("waiting for Go agents:", reg.Unregistered())
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.rules", Verb: "ask", SessionID: "s", Turn: 1, StatePath: "start", Prompt: "ready?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Value)
	// Output:
	// waiting for Go agents: [agent.rules]
	// waiting for Go agents: []
	// yes
}

// A Builder replaces how a plugin type is served; NewInProcess turns a Go
// agent into the Transport a Builder returns. Here every mcp_http alias is
// answered in process (an embedder's offline mode).
func ExampleNewInProcess() {
	offline := func(p *story.AgentPlugin, bc agent.BuildContext) (agent.Transport, error) {
		return agent.NewInProcess(p.Alias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{Submission: json.RawMessage(`{"decision":"defer"}`), Meta: map[string]any{"model": "offline"}}, nil
		})), nil
	}
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.remote": {Alias: "agent.remote", Plugin: story.PluginMCPHTTP, Endpoint: "https://agents.example.invalid/mcp"},
	}, agent.RegistryOptions{AppID: "example", Builders: map[string]agent.Builder{story.PluginMCPHTTP: offline}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.remote", Verb: "decide", SessionID: "s", Turn: 1, StatePath: "review", Prompt: "merge?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Submission), res.Meta["model"])
	// Output:
	// {"decision":"defer"} offline
}

// A cassette replays recorded answers instead of calling any plugin:
// ParseCassette takes the file's bytes (LoadCassette reads the file), and
// RegistryOptions.Cassette serves every alias from it.
func ExampleParseCassette() {
	dir, err := os.MkdirTemp("", "cassette-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	c, err := agent.ParseCassette(filepath.Join(dir, "review.cassette.yaml"), []byte(`kind: host_cassette
app_id: example
episodes:
  - id: approve_once
    match: { handler: agent.reviewer }
    agent:
      verb: decide
      response: '{"decision":"approve"}'
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.reviewer": {Alias: "agent.reviewer", Plugin: story.PluginSubprocess, Command: "never-started"},
	}, agent.RegistryOptions{AppID: "example", Cassette: c})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.reviewer", Verb: "decide", SessionID: "s", Turn: 1, StatePath: "review", Prompt: "merge?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Submission), res.CallID == agentcall.CassetteID("example", "approve_once", 0))
	fmt.Println("left to play:", c.Remaining())
	// Output:
	// {"decision":"approve"} true
	// left to play: []
}
