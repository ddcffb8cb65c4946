package host

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// HandlerGitWorktree is upstream's git-worktree workspace backend (a
// workspace iface's default binding).
const HandlerGitWorktree = "host.git_worktree"

// gitWorktreeHandler serves host.git_worktree as upstream (conformance
// builtins-git-worktree), running the real git in `repo` (else the run's
// working directory): create (`git worktree add -b <name>
// <toplevel>/.worktrees/<name, each / a -> [base]`, {ok, path}; a worktree
// git lists there answers the same when it holds the branch, else names
// the branch it holds; an existing branch is checked out there instead,
// {ok, path, branch, reused: true}; conformance
// git-worktree-create-existing), list ({workspaces: [{id, path, branch, dirty:
// false}]}, id being the worktree directory's name), get (dirty: git
// status shows anything, untracked files too) and sync by id (a missing
// one, or no checkout, is `"<id>" not found`; sync without an upstream
// branch is {ok, log: "", skipped_reason: "no upstream tracking"}, with one
// `git pull --ff-only`, log its stdout), cleanup_scan (a candidate per
// worktree but the main one and per branch no worktree holds, recommended
// when merged into base, default main, clean, not protected and not
// excluded; conformance git-worktree-cleanup-branches) and cleanup_apply
// (each candidate recommended: true loses its worktree, when its path is
// not "", and its merged branch, as git worktree remove and git branch -d
// allow).
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
		wts, err := g.worktrees()
		if _, notRun := err.(gitExecErr); notRun {
			// a repo: that is no directory is named (conformance
			// git-worktree-missing-repo); no checkout: nothing is found
			return domainErr("%s: %v", name, err), nil
		}
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
	return g.cleanupApply(name, c.Args["candidates"])
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
		return "", gitExecErr{err}
	}
	if r.exit != 0 {
		return "", fmt.Errorf("%s", strings.TrimSpace(r.stdout+r.stderr))
	}
	return r.stdout, nil
}

// gitExecErr is git not run at all (a directory it cannot enter, no git
// on PATH), as against git's own failure.
type gitExecErr struct{ err error }

func (e gitExecErr) Error() string { return "exec: " + e.err.Error() }

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
	wt := strArg(args, "name")
	if strings.TrimSpace(wt) == "" {
		return domainErr("%s: name argument is required", name), nil
	}
	if g.dir != "" && !filepath.IsAbs(g.dir) {
		// create names the repo by its absolute path (conformance
		// git-worktree-missing-repo)
		wd, err := g.env.workDir()
		if err != nil {
			return domainErr("%s: exec: %v", name, err), nil
		}
		g.dir = filepath.Join(wd, g.dir)
	}
	top, err := g.run("", "rev-parse", "--show-toplevel")
	if err != nil {
		return domainErr("%s: %v", name, err), nil
	}
	top = strings.TrimSpace(top)
	if top == "" {
		return domainErr("%s: git rev-parse --show-toplevel returned an empty path", name), nil
	}
	// the directory is the name with each / a - (feat/x: .worktrees/feat-x);
	// ".." names the main checkout itself, as upstream's
	path, err := confine(name, "name", top, filepath.Join(".worktrees", strings.ReplaceAll(wt, "/", "-")))
	if err != nil {
		return domainErr("%v", err), nil
	}
	if res, found := g.existing(name, wt, path); found {
		return res, nil
	}
	base := strings.TrimSpace(strArg(args, "base"))
	// git worktree add runs `git branch <name> <base>` with no "--": a
	// name of "-D" and a base naming a branch deleted that branch
	for _, a := range [][2]string{{"name", wt}, {"base", base}} {
		if err := notOption(a[0], a[1]); err != nil {
			return domainErr("%s: %v", name, err), nil
		}
	}
	add := []string{"worktree", "add", "-b", wt, "--", path}
	if base != "" {
		add = append(add, base)
	}
	if _, err := g.run(top, add...); err != nil {
		if _, e := g.run(top, "show-ref", "--verify", "--quiet", "refs/heads/"+wt); e != nil {
			return domainErr("%s: %v", name, err), nil
		}
		// the branch is there (made before, or by the add that failed):
		// check it out at the path instead
		if _, err := g.run(top, "worktree", "add", "--", path, wt); err != nil {
			return domainErr("%s: branch %q exists but reattach failed: %v", name, wt, err), nil
		}
		return Result{Data: map[string]any{"ok": true, "path": path, "branch": wt, "reused": true}}, nil
	}
	return Result{Data: map[string]any{"ok": true, "path": path}}, nil
}

// existing answers create for a worktree git already has at path (its
// directory there or not): ok when it holds the branch wt, else the
// domain error naming the branch it holds ("" when detached). found is
// false when git lists no worktree there (an empty directory of that
// name is no worktree: git worktree add fills it).
func (g gitIn) existing(name, wt, path string) (res Result, found bool) {
	wts, err := g.worktrees()
	if err != nil {
		return Result{}, false
	}
	for _, w := range wts {
		if filepath.Clean(w.path) != path {
			continue
		}
		if w.branch != wt {
			return domainErr("%s: %q already exists at %s but holds branch %q (wanted %q)", name, wt, path, w.branch, wt), true
		}
		return Result{Data: map[string]any{"ok": true, "path": path}}, true
	}
	return Result{}, false
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
	exclude := strings.TrimSpace(strArg(args, "exclude"))
	wts, err := g.worktrees()
	if ee, notRun := err.(gitExecErr); notRun {
		err = ee.err // with no "exec: " (conformance git-worktree-missing-repo)
	}
	if err != nil {
		return domainErr("%s: list worktrees: %v", name, err), nil
	}
	sc := scan{g: g, base: base, exclude: exclude, candidates: []map[string]any{}}
	checkedOut := map[string]bool{}
	for i, w := range wts {
		checkedOut[w.branch] = true
		if i == 0 || w.branch == "" {
			continue // the main checkout, a detached head
		}
		sc.add(w.id(), "worktree", w.path, w.branch, g.dirty(w.path), "worktree_remove", "branch_delete")
	}
	// the branches no worktree holds (git branch's own list: a detached
	// main checkout is its "(HEAD detached at <sha>)" line)
	out, _ := g.run("", "branch", "--format=%(refname:short)")
	for line := range strings.Lines(out) {
		if b := strings.TrimRight(line, "\n"); b != "" && !checkedOut[b] {
			sc.add(b, "branch", "", b, false, "branch_delete")
		}
	}
	slices.SortStableFunc(sc.candidates, func(a, b map[string]any) int {
		if ra, rb := a["recommended"] == true, b["recommended"] == true; ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return strings.Compare(a["branch"].(string), b["branch"].(string))
	})
	return Result{Data: map[string]any{"ok": true, "base": base, "exclude": exclude,
		"candidates": sc.candidates, "recommended_count": sc.recommended}}, nil
}

// excluded: exclude, when given, is in the branch or the path, in any
// case (upstream's "refinement": "ZZ" excludes zz, "worktrees" every
// worktree).
func (sc *scan) excluded(branch, path string) bool {
	x := strings.ToLower(sc.exclude)
	return x != "" && (strings.Contains(strings.ToLower(branch), x) || strings.Contains(strings.ToLower(path), x))
}

// protectedBranches are never recommended for cleanup, as upstream's
// (conformance git-worktree-cleanup-branches).
var protectedBranches = map[string]bool{"main": true, "master": true, "dev": true, "develop": true, "release": true, "trunk": true}

// scan gathers cleanup_scan's candidates: recommended when merged into
// base, clean, not protected and not excluded.
type scan struct {
	g           gitIn
	base        string
	exclude     string
	candidates  []map[string]any
	recommended int
}

func (sc *scan) add(id, kind, path, branch string, dirty bool, actions ...any) {
	_, notMerged := sc.g.run(path, "merge-base", "--is-ancestor", "--", branch, sc.base)
	merged := notMerged == nil
	reason := "branch is merged into " + sc.base
	switch {
	case protectedBranches[branch]:
		reason = "protected branch"
	case dirty:
		reason = "worktree has uncommitted changes"
	case sc.excluded(branch, path):
		reason = "excluded by refinement"
	case !merged:
		reason = "branch is not merged into " + sc.base
	}
	rec := reason == "branch is merged into "+sc.base
	if rec {
		sc.recommended++
	}
	sc.candidates = append(sc.candidates, map[string]any{"id": id, "kind": kind, "path": path, "branch": branch,
		"base": sc.base, "merged": merged, "dirty": dirty, "reason": reason, "recommended": rec, "actions": actions})
}

// cleanupApply removes what cleanup_scan recommended, as upstream: candidates
// is a list (or a string holding a JSON list) of maps; one whose
// recommended is not the boolean true is skipped ({branch, path, reason:
// "not recommended"}); another has `git worktree remove <path>` (unless its
// path is "": a branch candidate) then `git branch -d <branch>` run in the
// repository (neither forced: git refuses a dirty worktree and an unmerged
// branch), a success listed in deleted, a refusal in errors ("<branch>:
// worktree remove: <git's message>"), which make the call the domain error
// of their "; "-joined texts, data kept. With no candidates deleted and
// skipped are empty lists, else null until something is added (upstream's
// nil slices).
func (g gitIn) cleanupApply(name string, raw any) (Result, error) {
	var list []any
	switch t := raw.(type) {
	case nil:
	case []any:
		list = t
	case []map[string]any: // cleanup_scan's own answer, bound and passed back
		for _, m := range t {
			list = append(list, m)
		}
	case string:
		if strings.TrimSpace(t) == "" {
			break // no candidates, as upstream (conformance git-cleanup-apply-blank)
		}
		if err := json.Unmarshal([]byte(t), &list); err != nil {
			return domainErr("%s: candidates must be a list or JSON list: %v", name, err), nil
		}
	default:
		return domainErr("%s: candidates must be a list, got %s", name, goTypeName(raw)), nil
	}
	if len(list) == 0 {
		return Result{Data: map[string]any{"ok": true, "deleted": []any{}, "skipped": []any{}}}, nil
	}
	var deleted, skipped []any
	var errs []string
	for _, item := range list {
		cand, ok := item.(map[string]any)
		if !ok {
			continue
		}
		b, p := fmt.Sprint(cand["branch"]), fmt.Sprint(cand["path"]) // a missing one is "<nil>", as upstream
		if rec, _ := cand["recommended"].(bool); !rec {
			skipped = append(skipped, map[string]any{"branch": b, "path": p, "reason": "not recommended"})
			continue
		}
		// "--": a story's path or branch is never an option; a branch
		// candidate's path is "": its branch alone goes
		if p != "" {
			if _, err := g.run("", "worktree", "remove", "--", p); err != nil {
				errs = append(errs, fmt.Sprintf("%s: worktree remove: %v", b, err))
				continue
			}
		}
		if _, err := g.run("", "branch", "-d", "--", b); err != nil {
			errs = append(errs, fmt.Sprintf("%s: branch delete: %v", b, err))
			continue
		}
		deleted = append(deleted, map[string]any{"branch": b, "path": p})
	}
	data := map[string]any{"ok": len(errs) == 0, "deleted": deleted, "skipped": skipped}
	if len(errs) == 0 {
		return Result{Data: data}, nil
	}
	data["errors"] = toAnyList(errs)
	return Result{Data: data, Error: name + ": " + strings.Join(errs, "; ")}, nil
}

func toAnyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
