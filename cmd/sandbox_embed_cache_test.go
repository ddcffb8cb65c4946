package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestTestNeverWiresTheStoryEmbedder: routing.embedding (its endpoint and
// its cache_dir, which may name any directory) is wired by kitsoki run
// alone: under kitsoki test, sandboxed or not, host.agent.search of a
// host_bindings fixture has no embedder (refused under --sandbox, a
// domain error without), and a cache_dir outside the project stays as it
// was (SECURITY.md).
func TestTestNeverWiresTheStoryEmbedder(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	outside := t.TempDir()
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": `app: { id: embedcache, version: 0.1.0 }
hosts: [host.agent.search]
routing:
  embedding: { endpoint: "http://127.0.0.1:9", cache_dir: ` + outside + ` }
world:
  last_error: { type: string, default: "" }
intents:
  go: { description: go }
root: a
states:
  a:
    on:
      go: [ { target: b } ]
  b:
    on_enter:
      - invoke: host.agent.search
        with: { query: secrets, corpus: "*.md" }
        on_error: c
  c:
    terminal: true
`,
		"notes.md": "# notes\nsomething to search\n",
		"flows/f.yaml": `test_kind: flow
initial_state: a
host_bindings: { anything: host.inbox.add }
turns:
  - intent: go
`,
	})
	for _, args := range [][]string{{"--sandbox"}, {}} {
		code, out, errOut := runCmd(t, append([]string{"test", filepath.Join(dir, "app.yaml")}, args...)...)
		if code != 0 || !strings.Contains(out, "1 passed") {
			t.Errorf("test %v: exit %d, want the fixture to pass\n%s%s", args, code, out, errOut)
		}
		left, err := os.ReadDir(outside)
		if err != nil || len(left) != 0 {
			t.Fatalf("test %v: the cache_dir outside the project holds %v (%v)", args, left, err)
		}
	}
}
