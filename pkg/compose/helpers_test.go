package compose

import (
	"os"
	"path/filepath"
	"testing"
)

// writeStory writes files (path relative to the story directory → body)
// into a fresh directory and returns it.
func writeStory(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lintOnlyStory has an error kitsoki validate reports but the existing
// engine's loader accepts: an on_error naming no state.
const lintOnlyStory = `app: {id: lint}
root: start
states:
  start:
    terminal: true
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        on_error: nowhere
`
