package host

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// HandlerGit is upstream's git and pull-request backend (a vcs iface's
// default binding).
const HandlerGit = "host.git"

// gitHandler serves host.git as upstream (conformance builtins-git), running
// the real git in workdir (else the run's working directory; relative to
// it, as host.run's cwd): branch (`git checkout -b <name> [base]`, {ok,
// branch}), diff (`git diff`, the working tree against the index: {diff,
// files}, files null when nothing differs), commit (stage_all adds
// everything, files adds those, neither commits the tracked changes as
// `git commit -a`; a file that matches nothing is {ok, sha: "", files,
// skipped_reason: "pathspec did not match (no files to commit)"}, git's
// refusal of an empty commit {ok, sha: "", skipped_reason: "nothing to
// commit"}, else {ok, sha}; a failed add is stage_all: or stage: <git's
// output>) and push (the
// current branch to remote, default origin, with -u: {ok, url}, the
// remote's URL as configured less the credentials in it: upstream keeps
// them). The pull-request ops answer that the gh CLI is absent; with gh
// installed kitsoki still runs nothing (it reaches GitHub;
// docs/compat/hosts.md). git's own failure is the domain error git.<op>:
// <git's message>; a workdir it cannot enter is git.<op>: exec: <why>.
type gitHandler struct{ look lookPathFunc }

func (h gitHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	name := "git." + op
	switch op {
	case "":
		return domainErr("%s: op argument is required", HandlerGit), nil
	case "open_pr", "pr_status", "pr_comment":
		if cliPresent(h.look, "gh") {
			return notDriven(name, "gh", "op "+op), nil
		}
		if op == "open_pr" {
			return domainErr("%s: gh CLI not available — install github.com/cli/cli", name), nil
		}
		return domainErr("%s: gh CLI not available", name), nil
	case "branch", "diff", "commit", "push":
	default:
		return domainErr("%s: unknown op %q", HandlerGit, op), nil
	}
	g := gitIn{ctx: ctx, env: &c.Env, dir: strArg(c.Args, "workdir")}
	var (
		data map[string]any
		err  error
	)
	switch op {
	case "branch":
		data, err = g.branch(c.Args)
	case "diff":
		data, err = g.diff()
	case "commit":
		data, err = g.commit(c.Args)
	default:
		data, err = g.push(c.Args)
	}
	if err != nil {
		return domainErr("%s: %v", name, err), nil
	}
	return Result{Data: data}, nil
}

// notOption refuses a value git would read as an option (checkout -b,
// push and worktree add take a name, base or remote with no "--" before).
func notOption(key, v string) error {
	if strings.HasPrefix(v, "-") {
		return fmt.Errorf("%s %q starts with \"-\", which git would read as an option; name a branch, commit or remote", key, v)
	}
	return nil
}

func (g gitIn) branch(args map[string]any) (map[string]any, error) {
	b := strings.TrimSpace(strArg(args, "name"))
	if b == "" {
		return nil, errors.New("name argument is required")
	}
	base := strings.TrimSpace(strArg(args, "base"))
	if err := notOption("name", b); err != nil {
		return nil, err
	}
	if err := notOption("base", base); err != nil {
		return nil, err
	}
	co := []string{"checkout", "-b", b}
	if base != "" {
		co = append(co, base)
	}
	if _, err := g.run("", co...); err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "branch": b}, nil
}

func (g gitIn) diff() (map[string]any, error) {
	d, err := g.run("", "diff")
	if err != nil {
		return nil, err
	}
	names, err := g.run("", "diff", "--name-only")
	if err != nil {
		return nil, err
	}
	// a nil []any when nothing differs, as upstream: null in JSON and
	// == nil in a guard, but a view renders it <[]interface {} Value> in
	// the turn that binds it (conformance git-diff-files-nil)
	var files []any
	if f := strings.Fields(names); len(f) > 0 {
		files = toAnyList(strings.Split(strings.TrimSpace(names), "\n"))
	}
	return map[string]any{"diff": d, "files": files}, nil
}

func (g gitIn) commit(args map[string]any) (map[string]any, error) {
	msg := strArg(args, "message")
	if strings.TrimSpace(msg) == "" {
		return nil, errors.New("message argument is required")
	}
	all := boolArg(args, "stage_all")
	if all {
		if _, err := g.stage("stage_all", "add", "-A"); err != nil {
			return nil, err
		}
	}
	// as upstream: git add runs for any non-empty files list, with its
	// non-empty strings (none: git adds nothing); the answer's files is a
	// []string, as upstream's (a view shows <[]string Value>; conformance
	// git-commit-stage)
	list, _ := args["files"].([]any)
	if len(list) > 0 {
		files := []string{}
		for _, f := range list {
			if s, ok := f.(string); ok && s != "" {
				files = append(files, s)
			}
		}
		if out, err := g.stage("stage", append([]string{"add", "--"}, files...)...); err != nil {
			if strings.Contains(out, "did not match") {
				return map[string]any{"ok": true, "sha": "", "files": files, "skipped_reason": "pathspec did not match (no files to commit)"}, nil
			}
			return nil, err
		}
	}
	co := []string{"commit", "-m", msg}
	if !all && len(list) == 0 {
		co = []string{"commit", "-a", "-m", msg} // tracked changes, staged or not
	}
	if _, err := g.run("", co...); err != nil {
		if nothingToCommit(err.Error()) {
			return map[string]any{"ok": true, "sha": "", "skipped_reason": "nothing to commit"}, nil
		}
		return nil, err
	}
	sha, err := g.run("", "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "sha": strings.TrimSpace(sha)}, nil
}

// stage runs one staging git add of a commit. Its failure is step: git's
// output, which is empty when git did not run (upstream's words); the
// output is returned too.
func (g gitIn) stage(step string, args ...string) (string, error) {
	_, err := g.run("", args...)
	if err == nil {
		return "", nil
	}
	if errors.As(err, new(gitExecErr)) {
		return "", fmt.Errorf("%s: ", step)
	}
	return err.Error(), fmt.Errorf("%s: %v", step, err)
}

// nothingToCommit tells git commit's refusal of an empty commit (nothing
// staged, only untracked files, only unstaged changes) from its other
// failures: a hook's refusal is still an error, as upstream's, since git
// runs the pre-commit hook before it looks.
func nothingToCommit(out string) bool {
	for _, s := range []string{"nothing to commit", "nothing added to commit", "no changes added to commit"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

func (g gitIn) push(args map[string]any) (map[string]any, error) {
	remote := strings.TrimSpace(strArg(args, "remote"))
	if remote == "" {
		remote = "origin"
	}
	if err := notOption("remote", remote); err != nil {
		return nil, err
	}
	if _, err := g.run("", "push", "-u", remote, "HEAD"); err != nil {
		return nil, err
	}
	u, err := g.run("", "remote", "get-url", remote)
	if err != nil {
		u = remote // a URL given as the remote has none configured
	}
	return map[string]any{"ok": true, "url": withoutCredentials(strings.TrimSpace(u))}, nil
}

// withoutCredentials is a remote's URL without the user and password in
// it when it has a password or is http(s), whose user may be a token (a CI
// job's checkout: https://gitlab-ci-token:<token>@host/..., or
// https://<token>@github.com/...), as git shows a URL in its own messages;
// the answer reaches the world, the trace and any prompt built from it.
// Other URLs (ssh://git@host/..., git@host:path, a path) are unchanged.
func withoutCredentials(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, pw := u.User.Password(); !pw && u.Scheme != "http" && u.Scheme != "https" {
		return raw
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	host := rest[:strings.IndexAny(rest+"/", "/?#")]
	return scheme + "://" + rest[strings.LastIndex(host, "@")+1:]
}
