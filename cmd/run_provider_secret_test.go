//go:build unix

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A host provider inherits kitsoki's environment under run, as a hook
// does, so its stderr may show a ${VAR} secret of the story's
// agent_plugins; the provider's failure (its stderr tail, which the story
// binds through on_error) reaches the trace and the output masked.
func TestRunHostProviderStderrMasksAgentSecrets(t *testing.T) {
	const secret = "provider-echoed-s3cret-47"
	t.Setenv("RT11_PROVIDER_KEY", secret)
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: provleak, version: 0.1.0 }
hosts: [host.git, host.git.push]
agent_plugins:
  agent.p:
    plugin: subprocess
    command: /bin/true
    env: { KEY: "${RT11_PROVIDER_KEY}" }
root: start
states:
  start:
    on_enter:
      - invoke: host.git.push
        with: { branch: main }
        on_error: failed
  failed:
    terminal: true
    on_enter:
      - say: "failed: {{ world.last_error }}"
`,
		".kitsoki/plugins/gitp/manifest.yaml": "id: gitp\nsummary: leaks then crashes\nhosts: [host.git]\nentry: { command: ./gitp.sh }\n",
		".kitsoki/plugins/gitp/gitp.sh": "#!/bin/sh\nread -r line\necho \"gitp: key=$RT11_PROVIDER_KEY\" >&2\nexit 3\n",
	})
	if err := os.Chmod(filepath.Join(root, ".kitsoki/plugins/gitp/gitp.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	tracePath := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"run", filepath.Join(root, "story"), "--trace", tracePath}, &out, &errb)
	tr, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatalf("exit %d, no trace: %v\n%s%s", code, err, out.String(), errb.String())
	}
	all := string(tr) + out.String() + errb.String()
	if !strings.Contains(all, "gitp: key=") {
		t.Fatalf("the provider's stderr is nowhere: the test proves nothing\n%s", all)
	}
	if strings.Contains(all, secret) {
		t.Fatalf("the agent's secret leaked through the host provider's stderr:\n%s", all)
	}
}
