package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// A malformed submission is echoed (cut to 256 bytes) into the
// schema_invalid Detail. The cut must come after masking: a secret that
// straddles the cut would otherwise leave its first bytes in the error.
func TestSecretStraddlingTheRawCutNeverLeaks(t *testing.T) {
	st := loadSecretStory(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "schemas"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schemas", "out.json"), []byte(`{"type":"object"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sink := &agenttest.RecordingSink{}
	leak := func(p *story.AgentPlugin, bc agent.BuildContext) (agent.Transport, error) {
		return agent.NewInProcess(p.Alias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			// not JSON; the secret starts 10 bytes before the 256-byte cut
			return &agent.AskResponse{Submission: json.RawMessage(strings.Repeat("x", 246) + plantedSecret + " tail")}, nil
		})), nil
	}
	reg, err := agent.NewRegistry(st, agent.RegistryOptions{Sink: sink, StoryDir: dir,
		Builders: map[string]agent.Builder{story.PluginSubprocess: leak}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	_, err = reg.Dispatch(context.Background(), agent.Call{Alias: "agent.leaky", Verb: "decide", Turn: 1, StatePath: "room", SchemaPath: "schemas/out.json"})
	if agent.KindOf(err) != agent.KindSchemaInvalid {
		t.Fatalf("err = %v, want schema_invalid", err)
	}
	prefix := plantedSecret[:10]
	if strings.Contains(err.Error(), prefix) {
		t.Errorf("error carries the first bytes of the secret: %v", err)
	}
	for _, ev := range sink.Events() {
		b, _ := json.Marshal(ev)
		if strings.Contains(string(b), prefix) {
			t.Errorf("event %s carries the first bytes of the secret: %s", ev.Kind, b)
		}
	}
}
