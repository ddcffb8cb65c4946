package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HandlerGitWorktree is upstream's git-worktree workspace backend (a
// workspace iface's default binding).
const HandlerGitWorktree = "host.git_worktree"

// gitWorktreeHandler serves host.git_worktree as upstream (conformance
// builtins-git-worktree), running the real git in `repo` (else the run's
// working directory): create (`git worktree add -b <name>
// <toplevel>/.worktrees/<name> [base]`, {ok, path}; an existing one is
// answered as created), list ({workspaces: [{id, path, branch, dirty:
// false}]}, id being the worktree directory's name), get (dirty: git
// status shows anything, untracked files too) and sync by id (a missing
// one, or no checkout, is `"<id>" not found`; sync without an upstream
// branch is {ok, log: "", skipped_reason: "no upstream tracking"}, with one
// `git pull --ff-only`, log its stdout), cleanup_scan (the worktrees whose branch is
// merged into base, default main, recommended when clean) and
// cleanup_apply ({ok, deleted: [], skipped: []}: kitsoki removes nothing).
// git's own failure is the domain error workspace.<op>: <git's message>.
type gitWorktreeHandler struct{}

func (gitWorktreeHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	switch op {
	case "":
		return domainErr("%s: op argument is required", HandlerGitWorktree), nil
	case "create", "list", "get", "sync", "cleanup_scan", "cleanup_apply":
	default:
		return domainErr("%s: unknown op %q", HandlerGitWorktree, op), nil
	}
	g := gitIn{ctx: ctx, env: &c.Env, dir: strArg(c.Args, "repo")}
	name := "workspace." + op
	switch op {
	case "create":
		return g.create(name, c.Args)
	case "list":
		wts, err := g.worktrees()
		if err != nil {
			return domainErr("%s: %v", name, err), nil
		}
		list := make([]map[string]any, 0, len(wts))
		for _, w := range wts {
			list = append(list, w.data(false)) // upstream's list does not look
		}
		return Result{Data: map[string]any{"workspaces": list}}, nil
	case "get", "sync":
		id := strings.TrimSpace(strArg(c.Args, "id"))
		if id == "" {
			return domainErr("%s: id argument is required", name), nil
		}
		wts, _ := g.worktrees() // no checkout: nothing is found
		for _, w := range wts {
			if w.id() != id {
				continue
			}
			if op == "get" {
				return Result{Data: w.data(g.dirty(w.path))}, nil
			}
			return g.sync(name, w)
		}
		return domainErr("%s: %q not found", name, id), nil
	case "cleanup_scan":
		return g.cleanupScan(name, c.Args)
	}
	return Result{Data: map[string]any{"ok": true, "deleted": []any{}, "skipped": []any{}}}, nil
}

// gitIn runs git for one call, in dir (as the story gave it) or the run's
// working directory.
type gitIn struct {
	ctx context.Context
	env *Env
	dir string
}

// run runs git with args in dir ("" = the call's directory); a failure
// (git missing, a directory it cannot enter, a non-zero exit) is an error
// holding git's output, trimmed.
func (g gitIn) run(dir string, args ...string) (string, error) {
	if dir == "" {
		dir = g.dir
	}
	r, err := runProgram(g.ctx, g.env, dir, "git", args...)
	if err != nil {
		return "", fmt.Errorf("exec: %v", err)
	}
	if r.exit != 0 {
		return "", fmt.Errorf("%s", strings.TrimSpace(r.stdout+r.stderr))
	}
	return r.stdout, nil
}

// worktree is one entry of `git worktree list --porcelain`.
type worktree struct{ path, branch string }

func (w worktree) id() string { return filepath.Base(w.path) }

func (w worktree) data(dirty bool) map[string]any {
	return map[string]any{"id": w.id(), "path": w.path, "branch": w.branch, "dirty": dirty}
}

func (g gitIn) worktrees() ([]worktree, error) {
	out, err := g.run("", "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var wts []worktree
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "worktree "):
			wts = append(wts, worktree{path: strings.TrimPrefix(line, "worktree ")})
		case strings.HasPrefix(line, "branch ") && len(wts) > 0:
			wts[len(wts)-1].branch = strings.TrimPrefix(strings.TrimPrefix(line, "branch "), "refs/heads/")
		}
	}
	return wts, nil
}

// dirty reports uncommitted changes in the worktree at path, untracked
// files included (get, cleanup_scan; upstream's list answers false).
func (g gitIn) dirty(path string) bool {
	out, err := g.run(path, "status", "--porcelain")
	return err == nil && strings.TrimSpace(out) != ""
}

func (g gitIn) create(name string, args map[string]any) (Result, error) {
	wt := strings.TrimSpace(strArg(args, "name"))
	if wt == "" {
		return domainErr("%s: name argument is required", name), nil
	}
	top, err := g.run("", "rev-parse", "--show-toplevel")
	if err != nil {
		return domainErr("%s: %v", name, err), nil
	}
	top = strings.TrimSpace(top)
	if top == "" {
		return domainErr("%s: git rev-parse --show-toplevel returned an empty path", name), nil
	}
	path, err := confine(name, "name", filepath.Join(top, ".worktrees"), wt)
	if err != nil {
		return domainErr("%v", err), nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return Result{Data: map[string]any{"ok": true, "path": path}}, nil
	}
	add := []string{"worktree", "add", "-b", wt, path}
	if base := strings.TrimSpace(strArg(args, "base")); base != "" {
		add = append(add, base)
	}
	if _, err := g.run(top, add...); err != nil {
		return domainErr("%s: %v", name, err), nil
	}
	return Result{Data: map[string]any{"ok": true, "path": path}}, nil
}

func (g gitIn) sync(name string, w worktree) (Result, error) {
	if _, err := g.run(w.path, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"); err != nil {
		return Result{Data: map[string]any{"ok": true, "log": "", "skipped_reason": "no upstream tracking"}}, nil
	}
	r, err := runProgram(g.ctx, g.env, w.path, "git", "pull", "--ff-only")
	if err != nil {
		return domainErr("%s: exec: %v", name, err), nil
	}
	return Result{Data: map[string]any{"ok": r.exit == 0, "log": r.stdout}}, nil
}

func (g gitIn) cleanupScan(name string, args map[string]any) (Result, error) {
	base := strings.TrimSpace(strArg(args, "base"))
	if base == "" {
		base = "main"
	}
	wts, err := g.worktrees()
	if err != nil {
		return domainErr("%s: list worktrees: %v", name, err), nil
	}
	candidates := []map[string]any{}
	recommended := 0
	for i, w := range wts {
		if i == 0 || w.branch == "" {
			continue // the main checkout, a detached head
		}
		_, notMerged := g.run(w.path, "merge-base", "--is-ancestor", w.branch, base)
		merged := notMerged == nil
		dirty := g.dirty(w.path)
		reason := "branch is merged into " + base
		switch {
		case dirty:
			reason = "worktree has uncommitted changes"
		case !merged:
			reason = "branch is not merged into " + base
		}
		rec := merged && !dirty
		if rec {
			recommended++
		}
		candidates = append(candidates, map[string]any{"id": w.id(), "kind": "worktree", "path": w.path, "branch": w.branch,
			"base": base, "merged": merged, "dirty": dirty, "reason": reason, "recommended": rec,
			"actions": []any{"worktree_remove", "branch_delete"}})
	}
	return Result{Data: map[string]any{"ok": true, "base": base, "exclude": strArg(args, "exclude"),
		"candidates": candidates, "recommended_count": recommended}}, nil
}
