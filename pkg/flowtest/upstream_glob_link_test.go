package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestUpstreamGlobLinkOutSaysTheSame: in `kitsoki test flows APP` a
// story's flows/ (or intents/) that is a symbolic link leading out of the
// project picks the same glob whether its target exists or not, so the
// refusal that follows (flow-outside-root) is the answer in both cases;
// the existence of the target chose between that refusal and "no flow
// fixtures matched APP-flows/*.yaml", telling a pull request which
// directories the CI machine holds.
func TestUpstreamGlobLinkOutSaysTheSame(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "outside", "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"flows", "intents"} {
		var globs [2]string
		for i, target := range []string{filepath.Join(base, "outside", "d"), filepath.Join(base, "outside", "absent")} {
			dir := filepath.Join(t.TempDir(), "repo")
			storytest.WriteFile(t, filepath.Join(dir, ".git", "HEAD"), "")
			app := filepath.Join(dir, "s", "app.yaml")
			storytest.WriteFile(t, app, "app: {id: s}\nroot: a\nstates:\n  a: {terminal: true}\n")
			if err := os.Symlink(target, filepath.Join(dir, "s", sub)); err != nil {
				t.Fatal(err)
			}
			g := UpstreamGlob(app)
			if sub == "intents" {
				g = IntentsGlob(app)
			}
			globs[i] = strings.ReplaceAll(g, dir, "REPO")
		}
		if globs[0] != globs[1] {
			t.Errorf("%s/ linked out: the glob tells whether the target exists: %q (there) vs %q (absent)", sub, globs[0], globs[1])
		}
	}
}
