package host

import "testing"

// TestGitOptionRefused: host.git never hands git a name, base or remote
// that starts with "-" (checkout -b and push take them with no "--"
// before: a remote of --upload-pack=... would run a program), and says
// which argument and why; the refusal comes before git runs.
func TestGitOptionRefused(t *testing.T) {
	h, env := gitHandler{}, Env{WorkDir: t.TempDir()}
	wantDomainErr(t, h, env, map[string]any{"op": "branch", "name": "-D"}, "name -D", `git.branch: name "-D" starts with "-", which git would read as an option`)
	wantDomainErr(t, h, env, map[string]any{"op": "branch", "name": "w", "base": "--orphan"}, "base --orphan", `git.branch: base "--orphan" starts with "-"`)
	wantDomainErr(t, h, env, map[string]any{"op": "push", "remote": "--upload-pack=touch x"}, "remote", `git.push: remote "--upload-pack=touch x" starts with "-"`)
}
