package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trace show --prompts prints a sidecar once: later calls naming the same
// file point back to the first, so the output is bounded by the trace and
// its distinct sidecars, not by the references (300 calls naming one
// 20 MiB prompt printed 12 GB).
func TestTraceShowPromptsPrintsASidecarOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "agent-prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "BEGIN-PROMPT " + strings.Repeat("prompt text ", 1000)
	if err := os.WriteFile(filepath.Join(dir, "agent-prompts", "p.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agent-prompts", "r.json"), []byte(`{"submission":"answer text"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z"}` + "\n")
	const n = 50
	for i := range n {
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-01-01T00:00:01Z","kind":"agent.call.start","call_id":"c%d","payload":{"verb":"ask","prompt_file":"agent-prompts/p.txt"}}`+"\n", 2*i, i)
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-01-01T00:00:02Z","kind":"agent.call.complete","call_id":"c%d","payload":{"verb":"ask","duration_ms":1,"response_file":"agent-prompts/r.json"}}`+"\n", 2*i+1, i)
	}
	p := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := trRun(t, "", "trace", "show", "--prompts", "--color", "never", p)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if got := strings.Count(out, "BEGIN-PROMPT"); got != 1 {
		t.Errorf("the prompt sidecar printed %d times, want once", got)
	}
	if got := strings.Count(out, "answer text"); got != 1 {
		t.Errorf("the response sidecar printed %d times, want once", got)
	}
	for _, want := range []string{
		"prompt (agent-prompts/p.txt): as printed above for call c0's prompt",
		"response (agent-prompts/r.json): as printed above for call c0's response",
	} {
		if got := strings.Count(out, want); got != n-1 {
			t.Errorf("%q %d times, want %d", want, got, n-1)
		}
	}
}
