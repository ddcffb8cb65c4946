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

// A run masks with one redactor, built in pkg/compose from every
// agent_plugins declaration: the secret of an enabled alias and that of
// an alias the profile disables (its ${VAR} is still in kitsoki's
// environment, which hooks and host providers inherit) are masked alike
// in what a hook writes, in a host provider's answers and stderr, and so
// in the trace and the output. (The hooks once masked with the agent
// registry's redactor, which knew the enabled aliases only.)
func TestRunOneRedactorForHooksProvidersAndTrace(t *testing.T) {
	const enabled, disabled = "enabled-alias-s3cret-58", "disabled-alias-s3cret-83"
	t.Setenv("RT_ONE_KEY_A", enabled)
	t.Setenv("RT_ONE_KEY_B", disabled)
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: oneredactor, version: 0.1.0 }
hosts: [host.git, host.git.push, host.git.fail]
agent_plugins:
  agent.p:
    plugin: subprocess
    command: /bin/true
    env: { KEY: "${RT_ONE_KEY_A}" }
  agent.q:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/mcp
    headers: { Authorization: "Bearer ${RT_ONE_KEY_B}" }
world:
  pushed: { type: string, default: "" }
root: start
states:
  start:
    on_enter:
      - invoke: host.git.push
        bind: { pushed: pushed }
      - say: "pushed: {{ world.pushed }}"
      - invoke: host.git.fail
        on_error: failed
    terminal: true
  failed:
    terminal: true
    on_enter:
      - say: "failed: {{ world.last_error }}"
`,
		".kitsoki/plugins.yaml":               "disable: [transport.mcp_http]\n",
		".kitsoki/plugins/gitp/manifest.yaml": "id: gitp\nsummary: leaks\nhosts: [host.git]\nentry: { command: ./gitp.sh }\n",
		".kitsoki/plugins/gitp/gitp.sh": `#!/bin/sh
while read -r line; do
  case "$line" in
  *'"op":"fail"'*) echo "gitp: a=$RT_ONE_KEY_A b=$RT_ONE_KEY_B" >&2; exit 3 ;;
  *) printf '{"data":{"pushed":"gitp: a=%s b=%s"}}\n' "$RT_ONE_KEY_A" "$RT_ONE_KEY_B" ;;
  esac
done
`,
		".kitsoki/plugins/leaky/manifest.yaml": "id: leaky\nsummary: leaks\nhooks:\n  - point: run/start\nentry: { command: ./leaky.sh }\n",
		".kitsoki/plugins/leaky/leaky.sh":      "#!/bin/sh\nread -r line\necho \"leaky: a=$RT_ONE_KEY_A b=$RT_ONE_KEY_B\" >&2\nexit 3\n",
	})
	for _, f := range []string{".kitsoki/plugins/gitp/gitp.sh", ".kitsoki/plugins/leaky/leaky.sh"} {
		if err := os.Chmod(filepath.Join(root, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tracePath := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"run", filepath.Join(root, "story"), "--trace", tracePath}, &out, &errb)
	tr, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatalf("exit %d, no trace: %v\n%s%s", code, err, out.String(), errb.String())
	}
	all := string(tr) + out.String() + errb.String()
	for _, wrote := range []string{"gitp: a=[REDACTED] b=[REDACTED]", "leaky: a=[REDACTED] b=[REDACTED]"} {
		if !strings.Contains(string(tr), wrote) {
			t.Errorf("the trace lacks %q: the test proves nothing\n%s", wrote, all)
		}
	}
	for _, secret := range []string{enabled, disabled} {
		if strings.Contains(all, secret) {
			t.Errorf("%s leaked:\n%s", secret, all)
		}
	}
}
