package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

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
