package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// A path in the story's directory or the fixture's working directory
// matches upstream's copy by its rest, and only by the same rest; other
// strings, and a relative upstream path, must be equal.
func TestSameArgPaths(t *testing.T) {
	t.Parallel()
	dir := "/work/x/golden"
	work := filepath.Join(os.TempDir(), "kitsoki-flow-123") + "/r/.worktrees/f1"
	for _, c := range []struct {
		g, w string
		want bool
	}{
		{dir + "/kid/hi", "/tmp/h/golden/kid/hi", true},
		{dir + "/kid/hi", "/tmp/h/golden/kid/ho", false},
		{dir + "/kid/hi", "kid/hi", false},
		{work, "/tmp/hunt70/s/r/.worktrees/f1", true},
		{work, "/tmp/hunt70/s/r/.worktrees/f2", false},
		{"hi", "hi", true},
		{"hi", "/tmp/hi", false},
	} {
		g := map[string]any{"args": map[string]any{"p": []any{c.g}}}
		w := map[string]any{"args": map[string]any{"p": []any{c.w}}}
		if got := sameArg(g, w, dir); got != c.want {
			t.Errorf("sameArg(%q, %q) = %v, want %v", c.g, c.w, got, c.want)
		}
	}
}
