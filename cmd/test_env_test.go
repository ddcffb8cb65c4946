package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A story's host.run under kitsoki test, --sandbox or not, never sees a CI
// job's secret it does not name in env: (proc.EnvNoSecrets; a documented
// difference, docs/compat/hardening.md): the existing engine gives its
// whole environment (testdata/ci_env/oracle.golden, its report of the
// same fixture, passes), so the fixture fails here. Under --sandbox the
// command never runs.
func TestHostRunSeesNoCISecret(t *testing.T) {
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
	for _, args := range [][]string{{"test", app}, {"test", app, "--sandbox"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 1 || !strings.Contains(out, `expect_world["out"]: got "" (string)`) {
			t.Errorf("%v: exit %d, want 1 (the secret is not in the command's environment)\n%s%s", args, code, out, errOut)
		}
	}
}
