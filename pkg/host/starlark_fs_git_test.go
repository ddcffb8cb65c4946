package host

import (
	"strings"
	"testing"

	"path/filepath"

	"kitsoki/internal/testing/storytest"
)

// ctx.fs reads nothing inside a .git directory, by any name, case or
// link, and its glob lists nothing there: kitsoki test --sandbox run from
// a checkout (SECURITY.md's CI job) has the checkout as the working
// directory, and a pull request's script read .git/config, where
// actions/checkout keeps the job's token, and printed it reversed in a
// failing expectation.
func TestStarlarkFSRefusesGitDir(t *testing.T) {
	repo := t.TempDir()
	storytest.WriteFile(t, filepath.Join(repo, ".git", "config"), "[http]\n\textraheader = AUTHORIZATION: basic canary-5e1f\n")
	storytest.WriteFile(t, filepath.Join(repo, "notes", "a.md"), "kept")
	mustSymlink(t, ".git", filepath.Join(repo, "g"))
	mustSymlink(t, "../.git/config", filepath.Join(repo, "notes", "cfg"))
	story := filepath.Join(repo, "s")
	storytest.WriteFile(t, filepath.Join(story, "s.star.yaml"), "inputs:\n  p: {type: string}\n  op: {type: string}\noutputs:\n  out: {type: any}\n")
	storytest.WriteFile(t, filepath.Join(story, "s.star"), `def main(ctx):
    p, op = ctx.inputs["p"], ctx.inputs["op"]
    if op == "read":
        return {"out": ctx.fs.read(p)}
    if op == "exists":
        return {"out": ctx.fs.exists(p)}
    return {"out": ctx.fs.glob(p)}
`)
	t.Chdir(repo)
	run := func(op, p string) (any, string) {
		t.Helper()
		res, err := call(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(story), map[string]any{"script": "s.star", "inputs": map[string]any{"p": p, "op": op}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Data != nil {
			return res.Data["out"], res.Error
		}
		return nil, res.Error
	}
	for _, p := range []string{".git/config", "./.git/config", "notes/../.git/config", "g/config", "notes/cfg", ".GIT/config", ".git"} {
		for _, op := range []string{"read", "exists"} {
			out, msg := run(op, p)
			if out != nil || !strings.Contains(msg, "inside a .git directory") {
				t.Errorf("%s(%q) = %v, error %q; want the .git refusal", op, p, out, msg)
			}
		}
	}
	for _, pat := range []string{"*/config", "*/*", ".g*/*"} {
		out, msg := run("glob", pat)
		got, _ := out.([]any)
		for _, m := range got {
			if s, _ := m.(string); strings.Contains(strings.ToLower(s), ".git") || strings.HasPrefix(s, "g/") || s == "notes/cfg" {
				t.Errorf("glob(%q) listed %q (%v %q)", pat, s, got, msg)
			}
		}
	}
	if out, msg := run("read", "notes/a.md"); out != "kept" {
		t.Fatalf("read(notes/a.md) = %v, %q; the story's own files must still read", out, msg)
	}
}
