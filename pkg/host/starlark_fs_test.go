package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// ctx.fs reads the working directory first, as upstream, when it lies in
// the story's project; a path it lacks is looked up in the story
// directory next.
func TestStarlarkFSWorkdirThenStory(t *testing.T) {
	wd := t.TempDir()
	storytest.WriteFile(t, filepath.Join(wd, ".git", "HEAD"), "ref: refs/heads/main\n")
	story := filepath.Join(wd, "stories", "s")
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

// Started in a directory outside the story's project (a home directory),
// ctx.fs reads the story directory alone: nothing of the working
// directory is read, listed or found.
func TestStarlarkFSWorkdirOutsideProject(t *testing.T) {
	home, story := t.TempDir(), t.TempDir()
	// the story is its own project whatever the temporary directory's
	// ancestors hold (a stray /tmp/.kitsoki would make /tmp one)
	storytest.WriteFile(t, filepath.Join(story, ".git", "HEAD"), "ref: refs/heads/main\n")
	storytest.WriteFile(t, filepath.Join(home, "secret.txt"), "canary-7f3a")
	storytest.WriteFile(t, filepath.Join(story, "mine.txt"), "mine")
	storytest.WriteFile(t, filepath.Join(story, "s.star"), `def main(ctx):
    return {"out": [ctx.fs.exists("secret.txt"), ctx.fs.glob("*.txt"), ctx.fs.read("mine.txt")]}
`)
	storytest.WriteFile(t, filepath.Join(story, "r.star"), `def main(ctx):
    return {"out": ctx.fs.read("secret.txt")}
`)
	for _, n := range []string{"s", "r"} {
		storytest.WriteFile(t, filepath.Join(story, n+".star.yaml"), "inputs:\noutputs:\n  out: {type: any}\n")
	}
	t.Chdir(home)
	d := mustOK(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "s.star"})
	if got := fmt.Sprint(d["out"]); got != "[false [mine.txt] mine]" {
		t.Errorf("got %s", got)
	}
	res, err := call(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "r.star"})
	if err != nil || strings.Contains(res.Error, "canary") || !strings.Contains(res.Error, "secret.txt") || res.Data != nil {
		t.Fatalf("reading the working directory's file: %q %v %v", res.Error, res.Data, err)
	}
}

// A symbolic link inside the story that leads outside is refused whether
// or not its target exists, so a story's fixture cannot tell what files
// the machine running it holds (redteam6: ctx.fs.exists raised "leads
// outside" for a link to an existing file and returned False for a
// dangling one).
func TestStarlarkFSLinkOutTellsNothing(t *testing.T) {
	story, outside := t.TempDir(), t.TempDir()
	storytest.WriteFile(t, filepath.Join(story, ".git", "HEAD"), "ref: refs/heads/main\n")
	storytest.WriteFile(t, filepath.Join(outside, "there.txt"), "canary-7f3a")
	mustSymlink(t, filepath.Join(outside, "there.txt"), filepath.Join(story, "present"))
	mustSymlink(t, filepath.Join(outside, "absent.txt"), filepath.Join(story, "absent"))
	mustSymlink(t, filepath.Join(story, "absent"), filepath.Join(story, "chain"))
	mustSymlink(t, outside, filepath.Join(story, "dir"))
	storytest.WriteFile(t, filepath.Join(story, "s.star.yaml"), "inputs:\n  p: {type: string}\noutputs:\n  out: {type: any}\n")
	storytest.WriteFile(t, filepath.Join(story, "s.star"), `def main(ctx):
    return {"out": ctx.fs.exists(ctx.inputs["p"])}
`)
	t.Chdir(story)
	for _, p := range []string{"present", "absent", "chain", "dir/there.txt", "dir/absent.txt"} {
		res, err := call(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "s.star", "inputs": map[string]any{"p": p}})
		if err != nil || res.Data != nil || !strings.Contains(res.Error, "leads outside") {
			t.Errorf("exists(%q): data %v, error %q (%v); want the leads-outside refusal", p, res.Data, res.Error, err)
		}
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
