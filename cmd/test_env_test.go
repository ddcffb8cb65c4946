package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A story's host.run under kitsoki test without --sandbox sees kitsoki's
// whole environment, a CI job's secrets included, as the existing engine
// gives it (testdata/ci_env/oracle.golden, its report of the same fixture):
// a fixture can tell, so it stays, and SECURITY.md says so. Under
// --sandbox the command never runs.
func TestHostRunSeesTheCIEnvironmentUnlessSandboxed(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("KITSOKI_CI_SECRET_CANARY", "canary-ci-token-5150")
	golden, err := os.ReadFile(filepath.Join("testdata", "ci_env", "oracle.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(golden), "PASS      secret_visible.yaml") {
		t.Fatalf("the existing engine's report does not pass the fixture:\n%s", golden)
	}
	app := filepath.Join("testdata", "ci_env")
	if code, out, errOut := runCmd(t, "test", app); code != 0 {
		t.Errorf("without --sandbox: exit %d, want 0 as the existing engine\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCmd(t, "test", app, "--sandbox")
	if code != 1 || !strings.Contains(out, `expect_world["out"]: got "" (string)`) {
		t.Errorf("--sandbox: exit %d, want 1 (host.run refused)\n%s%s", code, out, errOut)
	}
}
