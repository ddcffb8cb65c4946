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
// does, so what it writes may show a ${VAR} secret of the story's
// agent_plugins: its stderr (quoted in the error of a crash, which the
// story binds through on_error), an answer's data, error or infra_error,
// or a stray stdout line. Each reaches the trace and the output masked.
func TestRunHostProviderStderrMasksAgentSecrets(t *testing.T) {
	const secret = "provider-echoed-s3cret-47"
	t.Setenv("RT11_PROVIDER_KEY", secret)
	for name, script := range map[string]string{
		"stderr":      `echo "gitp: key=$RT11_PROVIDER_KEY" >&2; exit 3`,
		"data":        `printf '{"data":{"pushed":"gitp: key=%s"}}\n' "$RT11_PROVIDER_KEY"`,
		"error":       `printf '{"error":"gitp: key=%s"}\n' "$RT11_PROVIDER_KEY"`,
		"infra_error": `printf '{"infra_error":"gitp: key=%s"}\n' "$RT11_PROVIDER_KEY"`,
		"stdout line": `echo "gitp: key=$RT11_PROVIDER_KEY"`,
	} {
		t.Run(name, func(t *testing.T) {
			root := storytest.TempTree(t, map[string]string{
				"story/app.yaml": `app: { id: provleak, version: 0.1.0 }
hosts: [host.git, host.git.push]
agent_plugins:
  agent.p:
    plugin: subprocess
    command: /bin/true
    env: { KEY: "${RT11_PROVIDER_KEY}" }
world:
  pushed: { type: string, default: "" }
intents:
  done: {}
root: start
states:
  start:
    on_enter:
      - invoke: host.git.push
        with: { branch: main }
        bind: { pushed: pushed }
        on_error: failed
      - say: "pushed: {{ world.pushed }}"
    terminal: true
  failed:
    terminal: true
    on_enter:
      - say: "failed: {{ world.last_error }}"
`,
				".kitsoki/plugins/gitp/manifest.yaml": "id: gitp\nsummary: leaks\nhosts: [host.git]\nentry: { command: ./gitp.sh }\n",
				".kitsoki/plugins/gitp/gitp.sh":       "#!/bin/sh\nread -r line\n" + script + "\n",
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
				t.Fatalf("what the provider wrote is nowhere: the test proves nothing\n%s", all)
			}
			if strings.Contains(all, secret) {
				t.Fatalf("the agent's secret leaked through the host provider:\n%s", all)
			}
		})
	}
}
