package agent_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// The fallback of a rejected builtin.local_llm answer is tested with the
// transport in pkg/agent/localllm (fallback_test.go there); this file holds
// the other side of the rule.

const verdictSchema = `{"type":"object","required":["verdict"],"properties":{"verdict":{"enum":["approve","reject"]}},"additionalProperties":false}`

var verdictCall = agent.Call{Alias: "agent.local", Verb: "decide", SessionID: "s", Turn: 1, StatePath: "judging", Prompt: "approve?", SchemaPath: "schemas/verdict.json"}

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
			claude := &agenttest.StubAgent{Answer: `{"verdict":"reject"}`}
			fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.ext": p}, agent.RegistryOptions{})
			fx.WriteSchema("verdict.json", verdictSchema)
			_ = fx.Registry.RegisterInProcess(story.DefaultAgentAlias, claude)
			c := verdictCall
			c.Alias = "agent.ext"
			_, err := fx.Registry.Dispatch(context.Background(), c)
			if agent.KindOf(err) != agent.KindSchemaInvalid || len(claude.Calls()) != 0 {
				t.Fatalf("%v, agent.claude asked %d times", err, len(claude.Calls()))
			}
			if p := agenttest.PayloadMap(fx.Sink.Events()[1]); p["substitution"] != nil {
				t.Fatalf("substitution recorded: %v", p)
			}
		})
	}
}
