package host

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a real repository with one commit in a fresh directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main", "."}, {"-c", "user.email=k@example.com", "-c", "user.name=k", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestGitWorktree runs the real git: worktrees made, listed, found and
// scanned as upstream answers (conformance builtins-git-worktree), a name
// that leads out of .worktrees refused, git's failures as domain errors.
func TestGitWorktree(t *testing.T) {
	repo := gitRepo(t)
	real, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	h := gitWorktreeHandler{}
	env := Env{WorkDir: repo}
	d := mustOK(t, h, env, map[string]any{"op": "create", "name": "f1"})
	if d["ok"] != true || d["path"] != filepath.Join(real, ".worktrees", "f1") {
		t.Errorf("create: %v", d)
	}
	mustOK(t, h, env, map[string]any{"op": "create", "name": "f1"}) // again: ok
	mustOK(t, h, Env{WorkDir: t.TempDir()}, map[string]any{"op": "create", "name": "f2", "base": "main", "repo": repo})
	d = mustOK(t, h, env, map[string]any{"op": "list"})
	ws := d["workspaces"].([]map[string]any)
	if len(ws) != 3 || ws[0]["branch"] != "main" || ws[1]["id"] != "f1" || ws[2]["branch"] != "f2" || ws[2]["dirty"] != false {
		t.Errorf("list: %v", ws)
	}
	if d := mustOK(t, h, env, map[string]any{"op": "get", "id": "f2"}); d["branch"] != "f2" || d["dirty"] != false {
		t.Errorf("get: %v", d)
	}
	if d := mustOK(t, h, env, map[string]any{"op": "sync", "id": "f1"}); d["skipped_reason"] != "no upstream tracking" || d["ok"] != true {
		t.Errorf("sync: %v", d)
	}
	writeTree(t, filepath.Join(repo, ".worktrees", "f2"), map[string]string{"u.txt": "x"})
	d = mustOK(t, h, env, map[string]any{"op": "cleanup_scan"})
	cs := d["candidates"].([]map[string]any)
	if d["base"] != "main" || d["recommended_count"] != 1 || len(cs) != 2 || cs[0]["recommended"] != true || cs[0]["reason"] != "branch is merged into main" ||
		cs[1]["dirty"] != true || cs[1]["reason"] != "worktree has uncommitted changes" {
		t.Errorf("cleanup_scan: %v", d)
	}
	if d := mustOK(t, h, env, map[string]any{"op": "cleanup_apply", "ids": []any{"f1"}}); len(d["deleted"].([]any)) != 0 {
		t.Errorf("cleanup_apply without candidates: %v", d)
	}
	// the scan's candidates passed back: f1 (merged, clean) goes, f2 (dirty) stays
	d = mustOK(t, h, env, map[string]any{"op": "cleanup_apply", "candidates": cs})
	if del, sk := d["deleted"].([]any), d["skipped"].([]any); len(del) != 1 || del[0].(map[string]any)["branch"] != "f1" || len(sk) != 1 ||
		sk[0].(map[string]any)["reason"] != "not recommended" {
		t.Errorf("cleanup_apply: %v", d)
	}
	if out, _ := exec.Command("git", "-C", repo, "branch", "--list", "f1").Output(); len(out) != 0 {
		t.Errorf("f1's branch is left: %q", out)
	}
	// a recommended but dirty worktree: git refuses, the call is a domain error with its data
	res, err := call(t, h, env, map[string]any{"op": "cleanup_apply", "candidates": `[{"branch": "f2", "path": "` + filepath.Join(real, ".worktrees", "f2") + `", "recommended": true}, {"recommended": true}]`})
	if err != nil || !strings.HasPrefix(res.Error, "workspace.cleanup_apply: f2: worktree remove: fatal: ") || !strings.Contains(res.Error, "; <nil>: worktree remove: fatal: '<nil>' is not a working tree") ||
		res.Data["ok"] != false || len(res.Data["errors"].([]any)) != 2 {
		t.Errorf("cleanup_apply dirty: %q %v (%v)", res.Error, res.Data, err)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "host.git_worktree: op argument is required"},
		{map[string]any{"op": "remove"}, `host.git_worktree: unknown op "remove"`},
		{map[string]any{"op": "create", "name": "  "}, "workspace.create: name argument is required"},
		// each / is a - in the directory (..-..-out): git refuses the branch name
		{map[string]any{"op": "create", "name": "../../out"}, "workspace.create: Preparing worktree (new branch '../../out')\nfatal: '../../out' is not a valid branch name"},
		{map[string]any{"op": "create", "name": "f3", "base": "nobranch"}, "workspace.create: Preparing worktree (new branch 'f3')\nfatal: not a valid object name: 'nobranch'"},
		{map[string]any{"op": "get", "id": uint64(3)}, "workspace.get: id argument is required"},
		{map[string]any{"op": "get", "id": "nope"}, `workspace.get: "nope" not found`},
		{map[string]any{"op": "list", "repo": "nope"}, "workspace.list: exec: chdir nope: no such file or directory"},
		{map[string]any{"op": "cleanup_apply", "candidates": "nope"}, "workspace.cleanup_apply: candidates must be a list or JSON list: invalid character"},
		{map[string]any{"op": "cleanup_apply", "candidates": uint64(5)}, "workspace.cleanup_apply: candidates must be a list, got uint64"},
	} {
		wantDomainErr(t, h, env, c.args, sprint(c.args), c.want)
	}
	outside := Env{WorkDir: t.TempDir()}
	wantDomainErr(t, h, outside, map[string]any{"op": "list"}, "no checkout", "workspace.list: fatal: not a git repository")
	wantDomainErr(t, h, outside, map[string]any{"op": "cleanup_scan"}, "no checkout", "workspace.cleanup_scan: list worktrees: fatal: not a git repository")
	wantDomainErr(t, h, outside, map[string]any{"op": "sync", "id": "f1"}, "no checkout", `workspace.sync: "f1" not found`)
	t.Setenv("PATH", t.TempDir())
	res, _ = call(t, h, env, map[string]any{"op": "list"})
	if !strings.Contains(res.Error, `workspace.list: exec: exec: "git": executable file not found in $PATH`) {
		t.Errorf("no git: %q", res.Error)
	}
}

// TestGitWorktreeNoOptionFromStory: a name, base, path or branch a story
// gives is never read by git as an option. Before, create with name "-D"
// and base "victim" ran `git worktree add -b -D <path> victim`, whose own
// `git branch -D victim` deleted the branch; cleanup_apply's path "-f" and
// branch "-D" reached git as options, and cleanup_scan's base too.
func TestGitWorktreeNoOptionFromStory(t *testing.T) {
	repo := gitRepo(t)
	for _, b := range []string{"victim", "other"} {
		if out, err := exec.Command("git", "-C", repo, "branch", b).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	branches := func() string {
		out, _ := exec.Command("git", "-C", repo, "branch", "--list", "--format=%(refname:short)").Output()
		return strings.Join(strings.Fields(string(out)), " ")
	}
	h := gitWorktreeHandler{}
	env := Env{WorkDir: repo}
	wantDomainErr(t, h, env, map[string]any{"op": "create", "name": "-D", "base": "victim"}, "name -D", `workspace.create: name "-D" starts with "-"`)
	wantDomainErr(t, h, env, map[string]any{"op": "create", "name": "w", "base": "--force"}, "base --force", `workspace.create: base "--force" starts with "-"`)
	res, err := call(t, h, env, map[string]any{"op": "cleanup_apply", "candidates": []any{map[string]any{"branch": "-D", "path": "-f", "recommended": true}}})
	if err != nil || !strings.Contains(res.Error, "'-f' is not a working tree") {
		t.Errorf("cleanup_apply path -f: %q (%v)", res.Error, err)
	}
	mustOK(t, h, env, map[string]any{"op": "create", "name": "w1"})
	if d := mustOK(t, h, env, map[string]any{"op": "cleanup_scan", "base": "--octopus"}); d["candidates"].([]map[string]any)[0]["merged"] != false {
		t.Errorf("cleanup_scan base --octopus: %v", d)
	}
	if got := branches(); got != "main other victim w1" {
		t.Errorf("branches left: %q, want main other victim w1", got)
	}
}
