package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/trace"
)

const sidecarStory = `app: { id: sidecar-probe, version: 0.1.0 }
hosts: [host.agent.ask]
world:
  reply: { type: string, default: "" }
root: probe
intents:
  ask: { description: "ask" }
states:
  probe:
    on:
      ask:
        - effects:
            - invoke: host.agent.ask
              id: identify
              with: { prompt: "who are you" }
              bind: { reply: stdout }
`

// TestTraceOutKeepsSidecars: test flows --trace-out writes the last
// fixture's trace to the file named; its prompt and response sidecars
// (over 1 KiB each here) must be beside it in agent-prompts/, as upstream
// writes them there. Ours copied only the .jsonl, leaving prompt_file and
// response_file naming files in a removed temporary folder. Found by the
// trace-eval.md walk (docs/compat/trace-eval.md A.9).
func TestTraceOutKeepsSidecars(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 1500)
	writeFileT(t, filepath.Join(dir, "app.yaml"), sidecarStory)
	writeFileT(t, filepath.Join(dir, "flows", "f.yaml"), "test_kind: flow\nuse_orchestrator: true\nhost_cassette: c.yaml\nturns:\n  - intent: { name: ask }\n    expect_world: { reply: hi }\n")
	writeFileT(t, filepath.Join(dir, "flows", "c.yaml"), `kind: host_cassette
app_id: sidecar-probe
match_on: [handler]
episodes:
  - id: one
    match: { handler: host.agent.ask }
    response: { data: { ok: true, stdout: hi } }
    agent:
      verb: ask
      duration_ms: 5
      prompt: "`+big+`"
      response: "{\"big\": \"`+big+`\"}"
`)
	out := filepath.Join(dir, "out", "last.jsonl")
	if err := os.Mkdir(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCmd(t, "test", "flows", filepath.Join(dir, "app.yaml"), "--trace-out", out); code != 0 {
		t.Fatalf("test flows: exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{`"prompt_file":"agent-prompts/`, `"response_file":"agent-prompts/`} {
		if !strings.Contains(string(data), ref) {
			t.Fatalf("trace has no %s…: %s", ref, data)
		}
	}
	for _, ref := range []string{"agent-prompts/"} {
		i := strings.Index(string(data), `"prompt_file":"`+ref)
		name, _, _ := strings.Cut(string(data[i+len(`"prompt_file":"`):]), `"`)
		if _, err := trace.ReadSidecar(out, name, 1<<20); err != nil {
			t.Fatalf("prompt_file %s does not resolve beside --trace-out: %v", name, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "out", "agent-prompts", "*"))
	if len(files) != 2 {
		t.Fatalf("sidecars beside --trace-out: %v, want the prompt and the response", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), big) {
			t.Errorf("%s: %v %.80s", f, err, b)
		}
	}
}
