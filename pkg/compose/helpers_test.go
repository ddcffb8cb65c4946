package compose

import (
	"testing"

	"kitsoki/internal/testing/storytest"
)

// writeStory writes files (path relative to the story directory → body)
// into a fresh directory and returns it.
func writeStory(t *testing.T, files map[string]string) string {
	t.Helper()
	return storytest.TempTree(t, files)
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
