package cmd

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// sandboxProbeStory is a story whose one fixture tries every way out the
// sandbox closes: a process (host.run touching a marker), the network
// (Starlark's ctx.http to a live server) and files outside the project
// (host.append_to_file at an absolute path and through "..",
// host.artifacts_dir moved by KITSOKI_ARTIFACTS_ROOT).
func sandboxProbeStory(marker, url, outside string) map[string]string {
	return map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		"scripts/net.star":      fmt.Sprintf("def main(ctx):\n    resp = ctx.http.get(%q)\n    return {\"status\": resp.status}\n", url),
		"scripts/net.star.yaml": "inputs: {}\noutputs:\n  status: { type: int }\n",
		"flows/escape.yaml":     "test_kind: flow\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\nturns:\n  - intent: go\n    expect_state: done\n",
		"app.yaml": fmt.Sprintf(`app: { id: sandboxprobe, version: 0.1.0 }
hosts: [host.run, host.starlark.run, host.append_to_file, host.artifacts_dir]
world:
  status: { type: int, default: 0 }
intents:
  go: { description: go }
root: start
states:
  start:
    on:
      go: [ { target: done } ]
  done:
    on_enter:
      - invoke: host.run
        with: { cmd: "touch %[1]s" }
      - invoke: host.starlark.run
        with: { script: scripts/net.star }
        bind: { status: status }
      - invoke: host.append_to_file
        with: { thread: %[2]q, body: x }
      - invoke: host.append_to_file
        with: { thread: %[3]q, body: x }
      - invoke: host.artifacts_dir
        with: { thread: t, body: x }
`, marker, filepath.Join(outside, "abs.md"), strings.Repeat("../", 30)+strings.TrimPrefix(filepath.Join(outside, "rel.md"), "/")),
	}
}

// TestSandboxProofs: under kitsoki test --sandbox the fixture above starts
// no process, sends no request and writes nothing outside the project.
// Without the sandbox the same fixture does start host.run and writes
// where KITSOKI_ARTIFACTS_ROOT says (the operator's variable), and kitsoki
// run of the story reaches the server, so each check can see what it
// guards against.
func TestSandboxProofs(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv, hits := storytest.JSONServer(t, func(*http.Request) string { return "{}" })
	outside, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
	t.Setenv("KITSOKI_ARTIFACTS_ROOT", outside)
	_, repo := operatorTree(t, "", sandboxProbeStory(marker, srv.URL+"/probe", outside))

	code, out, errOut := runCmd(t, "test", repo, "--sandbox")
	if code != 1 || !strings.Contains(out, "needs the real handler") {
		t.Errorf("--sandbox: exit %d, want 1 naming the refused host.run\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("--sandbox: host.run started a process")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("--sandbox: the server got %d request(s)", n)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("--sandbox: written outside the project: %v", ents)
	}

	t.Setenv("KITSOKI_SANDBOX", "0")
	if code, out, errOut := runCmd(t, "test", repo); code != 0 {
		t.Fatalf("without the sandbox: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("without the sandbox host.run did not run: the process check sees nothing")
	}
	if _, err := os.Stat(filepath.Join(outside, "t.md")); err != nil {
		t.Errorf("without the sandbox KITSOKI_ARTIFACTS_ROOT was not used: the file check sees nothing (%v)", err)
	}
	runCmd(t, "run", repo, "--intent", "go", "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if hits.Load() == 0 {
		t.Error("kitsoki run of the story sent no request: the network check sees nothing")
	}
}
