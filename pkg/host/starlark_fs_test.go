package host

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// ctx.fs reads the working directory first, as upstream; a path it lacks
// is looked up in the story directory next.
func TestStarlarkFSWorkdirThenStory(t *testing.T) {
	wd, story := t.TempDir(), t.TempDir()
	storytest.WriteFile(t, filepath.Join(wd, "both.txt"), "from wd")
	storytest.WriteFile(t, filepath.Join(story, "both.txt"), "from story")
	storytest.WriteFile(t, filepath.Join(story, "only.txt"), "story only")
	storytest.WriteFile(t, filepath.Join(story, "s.star"), `def main(ctx):
    return {"out": [ctx.fs.read("both.txt"), ctx.fs.read("only.txt"), ctx.fs.exists("only.txt"), ctx.fs.glob("*.txt"), ctx.fs.glob("o*.txt")]}
`)
	storytest.WriteFile(t, filepath.Join(story, "s.star.yaml"), "inputs:\noutputs:\n  out: {type: any}\n")
	t.Chdir(wd)
	d := mustOK(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "s.star"})
	if got := fmt.Sprint(d["out"]); got != "[from wd story only true [both.txt] [only.txt]]" {
		t.Errorf("got %s", got)
	}
}
