package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxWriteBudget: under --sandbox the fixture that appends ten
// 7 MiB bodies (each to its own file) is refused at the tenth call, the
// one that passes the 64 MiB budget, and reaches the story's on_error;
// the fixture that appends ten 6 MiB bodies passes. Without the sandbox
// there is no budget, so the tenth append succeeds and that fixture fails.
func TestSandboxWriteBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 250 MiB of temporary files")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	app := filepath.Join("testdata", "sandbox_write_budget", "app.yaml")
	code, out, errOut := runCmd(t, "test", app, "--sandbox")
	if code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("--sandbox: exit %d, want both fixtures to pass\n%s%s", code, out, errOut)
	}
	t.Setenv("KITSOKI_SANDBOX", "0")
	code, out, errOut = runCmd(t, "test", app)
	if code != 1 || !strings.Contains(out, "FAIL  testdata/sandbox_write_budget/flows/over.yaml") || !strings.Contains(out, "1 passed, 1 failed") {
		t.Fatalf("without the sandbox: exit %d, want over.yaml to fail (no budget)\n%s%s", code, out, errOut)
	}
}
