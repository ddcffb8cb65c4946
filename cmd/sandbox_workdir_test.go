package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestSandboxWorkDirsPerFixture: under test --sandbox -j 4, each fixture
// writes in its own temporary directory (a thread appended to by every
// fixture is each one's first comment, #1) and every one is removed when
// the run ends, failed fixtures' included: the temporary directory is
// left as it was.
func TestSandboxWorkDirsPerFixture(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	files := map[string]string{"app.yaml": `app: { id: wdirs, version: 0.1.0 }
hosts: [host.append_to_file]
world:
  id: { type: string, default: "" }
intents:
  go: { description: go }
root: a
states:
  a:
    on:
      go: [ { target: b } ]
  b:
    on_enter:
      - invoke: host.append_to_file
        with: { thread: shared.md, body: "one more" }
        bind: { id: message_id }
`}
	for i := range 8 {
		want := "shared#1"
		if i == 7 {
			want = "a failure" // a failed fixture's directory goes too
		}
		files[fmt.Sprintf("flows/f%d.yaml", i)] = fmt.Sprintf(`test_kind: flow
initial_state: a
use_orchestrator: true
host_bindings: { anything: host.inbox.add }
turns:
  - intent: go
    expect_world: { id: %q }
`, want)
	}
	dir := storytest.TempTree(t, files)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, out, errOut := runCmd(t, "test", filepath.Join(dir, "app.yaml"), "--sandbox", "-j", "4")
	if code != 1 || !strings.Contains(out, "7 passed, 1 failed") || !strings.Contains(out, "FAIL") || !strings.Contains(out, "f7.yaml") {
		t.Fatalf("exit %d, want f0..f6 to pass (each its own directory) and f7 to fail\n%s%s", code, out, errOut)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind in TMPDIR: %s", e.Name())
	}
}
