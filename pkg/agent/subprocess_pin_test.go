package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// agent_plugins.<alias>.sha256: pins the plugin program: the right digest
// runs it; another refuses the call as plugin_crash naming the file, the
// pin's place, the expected and the actual digests, and starts nothing.
func TestSubprocessSHA256Pin(t *testing.T) {
	bin := BuildTestPlugin(t, "echoagent")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	good := hex.EncodeToString(sum[:])
	pinned := func(pin string) Transport {
		p := &story.AgentPlugin{Alias: "agent.echo", Plugin: story.PluginSubprocess, Command: bin, SHA256: pin,
			Pos: story.Pos{File: "app.yaml", Line: 12, Col: 3}}
		tr, err := newSubprocessTransport(p, BuildContext{StoryDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tr.Close() })
		return tr
	}
	CheckNoChildren(t)
	if resp := askOK(t, pinned(good), referenceRequest()); string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
	bad := strings.Repeat("0", 64)
	ae := askKind(t, pinned(bad), context.Background(), referenceRequest(), KindPluginCrash)
	for _, want := range []string{bin, "agent_plugins.agent.echo sha256: in app.yaml:12:3", "expected " + bad, "actual " + good} {
		if !strings.Contains(ae.Detail, want) {
			t.Fatalf("detail lacks %q:\n%s", want, ae.Detail)
		}
	}
}
