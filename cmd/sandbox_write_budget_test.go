package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxWriteBudget: under --sandbox the fixture that appends ten
// 7 MiB bodies (each to its own file) is refused at the tenth call, the
// one that passes the 64 MiB budget, and reaches the story's on_error;
// the fixture that appends ten 6 MiB bodies passes. Without the sandbox
// there is no budget, so the tenth append succeeds and the first fixture
// fails (only it runs the second time).
//
// It runs the built kitsoki, not the command in process, so that it runs
// beside the other tests (in process it needs t.Setenv, which rules out
// t.Parallel): the fixtures write about 200 MiB to the disk, which in
// process held the package's serial tests back. The budget's logic runs
// under -race in pkg/host's TestWriteBudget* (small budgets), and
// in-process --sandbox runs of fixtures are in sandbox_proof_test.go and
// sandbox_workdir_test.go.
func TestSandboxWriteBudget(t *testing.T) {
	t.Parallel() // only its own subprocesses
	if testing.Short() {
		t.Skip("writes about 200 MiB of temporary files")
	}
	bin := buildKitsoki(t)
	config := t.TempDir()
	app := filepath.Join("testdata", "sandbox_write_budget", "app.yaml")
	run := func(env []string, args ...string) (int, string) {
		t.Helper()
		c := exec.Command(bin, args...)
		c.Env = append(append(os.Environ(), "XDG_CONFIG_HOME="+config), env...)
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		err := c.Run()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("kitsoki %v: %v", args, err)
		}
		return c.ProcessState.ExitCode(), out.String()
	}
	code, out := run(nil, "test", app, "--sandbox")
	if code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("--sandbox: exit %d, want both fixtures to pass\n%s", code, out)
	}
	// Only over.yaml: under.yaml's 60 MiB, written again, would show nothing
	// more (it passed under the budget above).
	code, out = run([]string{"KITSOKI_SANDBOX=0"}, "test", app, "--run", "^over")
	if code != 1 || !strings.Contains(out, "FAIL  testdata/sandbox_write_budget/flows/over.yaml") || !strings.Contains(out, "0 passed, 1 failed") {
		t.Fatalf("without the sandbox: exit %d, want over.yaml to fail (no budget)\n%s", code, out)
	}
}
