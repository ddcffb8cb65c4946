package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// A submission that would take many times its bytes once decoded (a
// model's answer of empty arrays: 40 times; 64 MiB of them took 2.7 GB)
// is refused before it is decoded or checked against a schema, naming its
// size and the limit; the same size of text is an answer. The stand-in
// claude CLI (fakeclaude) answers through the registry; the floor is
// lowered from jsoncost.Floor's 256 MiB.
func TestCostlySubmissionIsRefused(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	empties := "[" + strings.Repeat("[],", 10_000) + "[]]"
	for name, answer := range map[string]string{"empty arrays": empties, "text": `{"a":"` + strings.Repeat("x", len(empties)) + `"}`} {
		t.Run(name, func(t *testing.T) {
			CheckNoChildren(t)
			reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{
				"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin,
					Env: map[string]string{"FAKE_CLAUDE_ANSWER": answer, "FAKE_CLAUDE_MODE": "structured"}},
			}, RegistryOptions{AppID: "t", StoryDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			reg.costFloor = 1 << 10
			_, err = reg.Dispatch(context.Background(), Call{Alias: "agent.claude", Verb: "ask", Prompt: "hi", Turn: 1, StatePath: "s"})
			var ae *AskError
			if name == "text" {
				if err != nil {
					t.Fatalf("text: %v", err)
				}
				return
			}
			if !errors.As(err, &ae) || ae.Kind != KindSchemaInvalid || !strings.Contains(ae.Detail, "submission is 30004 bytes of JSON that would take over 360048 bytes once decoded") {
				t.Fatalf("err %v; want schema_invalid naming the sizes", err)
			}
		})
	}
}

// An mcp_http server's answer of empty arrays in its structuredContent is
// refused before the MCP SDK decodes it into any, whether it comes as a
// server-sent event or as one JSON body; the next answer is read as
// usual. The floor is lowered from jsoncost.Floor's 256 MiB, above what
// the handshake's small messages are estimated at.
func TestMCPHTTPCostlyAnswerIsRefused(t *testing.T) {
	empties := "[" + strings.Repeat("[],", 20_000) + "[]]"
	for name, jsonBody := range map[string]bool{"events": false, "json-body": true} {
		t.Run(name, func(t *testing.T) {
			f := newMCPFixture(t, mcpecho.Options{Structured: true, HTTP: &mcp.StreamableHTTPOptions{JSONResponse: jsonBody}})
			tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
			tr.costFloor = 64 << 10
			_, err := tr.Ask(context.Background(), withFault("answer:"+empties))
			var ae *AskError
			if !errors.As(err, &ae) || ae.Kind != KindTransportError || !strings.Contains(ae.Detail, "of JSON that would take over") {
				t.Fatalf("err %.300v; want a transport error naming the sizes", err)
			}
			if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
				t.Fatalf("after the refused answer: %.300s", resp.Submission)
			}
		})
	}
}
