package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// An embedder serves a story's builtin.inprocess alias with a Go function:
// declare the alias, register the agent, dispatch a call.
func ExampleRegistry_RegisterInProcess() {
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.greeter": {Alias: "agent.greeter", Plugin: "builtin.inprocess"},
	}, agent.RegistryOptions{AppID: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	greeter := agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		answer, _ := json.Marshal(map[string]string{"greeting": "hello " + req.With["name"].(string)})
		return &agent.AskResponse{Submission: answer}, nil
	})
	if err := reg.RegisterInProcess("agent.greeter", greeter); err != nil {
		fmt.Println(err)
		return
	}
	res, err := reg.Dispatch(context.Background(), agent.Call{
		Alias: "agent.greeter", Verb: "ask", SessionID: "s1", Turn: 1, StatePath: "start",
		Prompt: "greet", With: map[string]any{"name": "Ada"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Submission))
	fmt.Println(res.Value.(map[string]any)["greeting"])
	// Output:
	// {"greeting":"hello Ada"}
	// hello Ada
}

// A plugin's failure is an *AskError whose Kind names the outcome; KindOf
// reads it back from any wrapped error.
func ExampleKindOf() {
	err := fmt.Errorf("dispatch: %w", agent.Errorf(agent.KindDeadlineExceeded, "no answer in %s", "30s"))
	fmt.Println(agent.KindOf(err))
	var ae *agent.AskError
	fmt.Println(errors.As(err, &ae), ae.Detail)
	// Output:
	// deadline_exceeded
	// true no answer in 30s
}

// The request a plugin receives is JSON with the field names of the
// subprocess contract; the world is a read-only snapshot.
func ExampleAskRequest() {
	req := agent.AskRequest{
		SessionID: "s1", Turn: 3, StatePath: "triage", Verb: "decide", Prompt: "pick one",
		World: agent.World{Vars: map[string]any{"ticket": 42}}, CallID: "0123456789abcdef",
	}
	b, _ := json.Marshal(req)
	fmt.Println(string(b))
	// Output:
	// {"session_id":"s1","turn":3,"state_path":"triage","verb":"decide","prompt":"pick one","world":{"vars":{"ticket":42}},"deadline":"0001-01-01T00:00:00Z","call_id":"0123456789abcdef"}
}
