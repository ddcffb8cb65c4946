package host

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/opened"
)

// host.starlark.run's reads (ctx.fs, the script, its sidecar, load()ed
// modules) against a directory swapped for a link out between a path's
// check and its read (fileroot_test.go), or a link that the check does not
// see planted before the call.

// swapWhen is a checked hook that swaps dir for a link to target the
// first time a path ending in suffix is checked.
func swapWhen(t *testing.T, suffix, dir, target string) func(string) {
	done := false
	return func(abs string) {
		if !done && strings.HasSuffix(filepath.ToSlash(abs), suffix) {
			done = true
			linkOut(t, dir, target)
		}
	}
}

// starFiles is a story (its own project: it has .git) whose s.star runs
// ctx.fs.<op>(p), and a directory outside holding secrets where a link
// swapped in would lead.
func starFiles(t *testing.T) (story, outside string) {
	story, outside = t.TempDir(), t.TempDir()
	side := "inputs:\n  p: {type: string, required: false}\n  op: {type: string, required: false}\noutputs:\n  out: {type: any}\n"
	writeTree(t, story, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"s.star": `def main(ctx):
    p, op = ctx.inputs["p"], ctx.inputs["op"]
    if op == "read":
        return {"out": ctx.fs.read(p)}
    if op == "exists":
        return {"out": ctx.fs.exists(p)}
    return {"out": ctx.fs.glob(p)}
`,
		"s.star.yaml":         side,
		"sub/a.txt":           "mine",
		"lib/m.star":          "X = \"mine\"\n",
		"l.star":              "load(\"lib/m.star\", \"X\")\ndef main(ctx):\n    return {\"out\": X}\n",
		"l.star.yaml":         side,
		"scripts/u.star":      "def main(ctx):\n    return {\"out\": \"mine\"}\n",
		"scripts/u.star.yaml": side,
		"t.star":              "def main(ctx):\n    return {\"out\": \"ran\"}\n",
	})
	writeTree(t, outside, map[string]string{
		"a.txt":       "SECRET",
		"m.star":      "X = \"SECRET\"\n",
		"u.star":      "def main(ctx):\n    return {\"out\": \"SECRET\"}\n",
		"u.star.yaml": side,
		"t.star.yaml": side,
	})
	t.Chdir(story)
	return story, outside
}

func TestStarlarkLinkSwappedIn(t *testing.T) {
	for _, c := range []struct {
		name, script, op, p, suffix, swap string
	}{
		{"ctx.fs.read", "s.star", "read", "sub/a.txt", "sub/a.txt", "sub"},
		{"ctx.fs.exists", "s.star", "exists", "sub/a.txt", "sub/a.txt", "sub"},
		{"load()", "l.star", "", "", "lib/m.star", "lib"},
		{"the script", "scripts/u.star", "", "", "scripts/u.star", "scripts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			story, outside := starFiles(t)
			h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, checked: swapWhen(t, c.suffix, filepath.Join(story, c.swap), outside)})
			res, err := call(t, h, starEnv(story), map[string]any{"script": c.script, "inputs": map[string]any{"p": c.p, "op": c.op}})
			wantLinkRefused(t, res, err)
			if strings.Contains(fmt.Sprint(res.Data), "SECRET") || strings.Contains(fmt.Sprint(res.Data), "true") {
				t.Errorf("the result tells of a file outside: %v", res.Data)
			}
		})
	}
}

// A wildcard matching a directory link that leads out, or a pattern
// naming one, lists nothing through it: the match's name would tell what
// the machine holds, and the directory is never listed (a link to / made
// a wildcard walk the machine).
func TestStarlarkGlobThroughALinkOut(t *testing.T) {
	for pat, want := range map[string]string{"*/a.txt": "[sub/a.txt]", "*/*/*": "[]"} {
		t.Run(pat, func(t *testing.T) {
			story, outside := starFiles(t)
			linkOut(t, filepath.Join(story, "out"), outside)
			var d map[string]any
			listed := opened.During(t, []string{outside}, func() {
				d = mustOK(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "s.star", "inputs": map[string]any{"p": pat, "op": "glob"}})
			})
			if got := fmt.Sprint(d["out"]); got != want {
				t.Errorf("glob gave %s, want %s", got, want)
			}
			if len(listed) > 0 {
				t.Errorf("glob listed %s through the link out", listed)
			}
		})
	}
}

// A script's sidecar that is a link out is refused, not read.
func TestStarlarkSidecarLinkOut(t *testing.T) {
	story, outside := starFiles(t)
	mustSymlink(t, filepath.Join(outside, "t.star.yaml"), filepath.Join(story, "t.star.yaml"))
	res, err := call(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "t.star"})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || res.Data != nil {
		t.Errorf("result %+v, error %v: want the sidecar refused for its link", res, err)
	}
}
