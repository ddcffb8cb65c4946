package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A hook process inherits kitsoki's environment under run, so its stderr
// may show a ${VAR} secret of the story's agent_plugins; the hook's
// failure (its stderr tail) reaches the trace and the log masked, as a
// plugin's own stderr does.
func TestRunHookStderrMasksAgentSecrets(t *testing.T) {
	const secret = "hook-echoed-s3cret-91"
	t.Setenv("RT3_HOOK_KEY", secret)
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: hooked, version: 0.1.0 }
agent_plugins:
  agent.p:
    plugin: subprocess
    command: /bin/true
    env: { KEY: "${RT3_HOOK_KEY}" }
root: start
states:
  start:
    terminal: true
`,
		".kitsoki/plugins/leaky/manifest.yaml": fmt.Sprintf(`id: leaky
version: 1.0.0
summary: crashes, echoing an env var
hooks:
  - point: run/start
entry:
  command: %q
  args: [crash-echo-env, RT3_HOOK_KEY]
  timeout_ms: 60000
`, hook),
	})
	tracePath := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errb bytes.Buffer
	Run([]string{"run", filepath.Join(root, "story"), "--trace", tracePath}, &out, &errb)
	tr, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatalf("no trace: %v\nstderr:\n%s", err, errb.String())
	}
	all := string(tr) + out.String() + errb.String()
	if !strings.Contains(all, "testhook: RT3_HOOK_KEY=") {
		t.Fatalf("the hook's stderr is nowhere: the test proves nothing\n%s", all)
	}
	if strings.Contains(all, secret) {
		t.Fatalf("the agent's secret leaked through the hook's stderr:\n%s", all)
	}
}
