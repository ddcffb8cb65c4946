package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOperatorDisablesHostRunByAnyName: the operator's disable: [host.run]
// holds whatever name the story reaches a program by. The story calls
// host.run.x (served by host.run through the longest-prefix lookup),
// iface.sh.exec (an interface whose default is host.run) and host.git diff
// in a checkout whose .git/config names a core.fsmonitor program (git runs
// it on diff): in kitsoki run and in kitsoki test's host_bindings none of
// the three markers appears, each call taking its on_error path.
func TestOperatorDisablesHostRunByAnyName(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	m := func(n string) string { return filepath.Join(dir, n) }
	story := fmt.Sprintf(`app: {id: names, version: 0.1.0}
hosts: [host.run, host.run.x, host.git]
host_interfaces:
  sh:
    description: a shell
    operations:
      exec: {input: {cmd: string}, output: {stdout: string}}
    default: host.run
world:
  n: {type: int, default: 0}
intents:
  a: {description: a}
  b: {description: b}
  c: {description: c}
root: s
states:
  s:
    on:
      a: [{target: ., effects: [{invoke: host.run.x, with: {cmd: "touch %s"}, on_error: refused}]}]
      b: [{target: ., effects: [{invoke: iface.sh.exec, with: {cmd: "touch %s"}, on_error: refused}]}]
      c: [{target: ., effects: [{invoke: host.git, with: {op: diff}, on_error: refused}]}]
  refused:
    on:
      a: [{target: s, effects: [{set: {n: "{{ world.n + 1 }}"}}]}]
`, m("prefix"), m("iface"))
	flow := "test_kind: flow\nuse_orchestrator: true\nhost_bindings: {sh: host.run}\nturns:\n" +
		"  - {intent: a, expect_state: refused}\n  - {intent: a, expect_state: s}\n" +
		"  - {intent: b, expect_state: refused}\n  - {intent: a, expect_state: s}\n" +
		"  - {intent: c, expect_state: refused}\n"
	_, repo := operatorTree(t, "disable: [host.run]\n", map[string]string{"app.yaml": story, "flows/names.yaml": flow})
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", repo, "config", "core.fsmonitor", "touch "+m("fsmonitor")+"; false").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}

	code, out, errOut := runCmd(t, "run", repo, "--intent", "a", "--intent", "a", "--intent", "b", "--intent", "a", "--intent", "c",
		"--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if code != 1 || strings.Count(out, "is disabled in the plugin assembly") != 3 {
		t.Errorf("run: exit %d, want three refusals and a rest in refused\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "test", repo)
	if code != 0 || !strings.Contains(out, "1 passed") {
		t.Errorf("test: exit %d, want the fixture to pass (every call refused)\n%s%s", code, out, errOut)
	}
	for _, n := range []string{"prefix", "iface", "fsmonitor"} {
		if _, err := os.Stat(m(n)); err == nil {
			t.Errorf("%s: a program ran although the operator's profile disables host.run", n)
		}
	}
}
