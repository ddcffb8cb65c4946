package flowtest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Fixtures that share one --workdir run one at a time, in file order, as
// upstream's do in its cwd: each real append sees the files the earlier
// fixtures left (message ids t#1 … t#8), whatever -j says. Run at once,
// two appends read the same file and one chunk was lost.
func TestSharedWorkDirRunsInOrder(t *testing.T) {
	const n = 8
	var docs []string
	for k := 1; k <= n; k++ {
		docs = append(docs, fmt.Sprintf(`test_kind: flow
app: ../app.yaml
initial_state: s
use_orchestrator: true
host_bindings: { host.run: host.run }
turns:
  - intent: { name: add }
    expect_world: { id: "t#%d" }
`, k))
	}
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: { id: shared-workdir, version: 0.1.0 }
hosts: [host.artifacts_dir]
world:
  id: { type: string, default: "" }
intents:
  add: {}
root: s
states:
  s:
    on:
      add:
        - target: .
          effects:
            - invoke: host.artifacts_dir
              with: { thread: t, body: chunk }
              bind: { id: message_id }
`,
		"flows/f.yaml": strings.Join(docs, "---\n"),
	})
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "*.yaml"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := NewRunner(Options{Jobs: n, WorkDir: t.TempDir()}).Run(context.Background(), files)
	if len(rs) != n {
		t.Fatalf("%d results, want %d", len(rs), n)
	}
	for k, r := range rs {
		if !r.Passed() {
			t.Errorf("fixture %d: %+v %+v", k+1, r.Fatal, r.Failures)
		}
	}
}
