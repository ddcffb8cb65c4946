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

// TestGitPushURLWithoutCredentials: the url push answers drops the user
// and password of an http(s) URL or of any URL holding a password, keeping
// the rest as written; other URLs are answered unchanged (conformance
// git-push-url-credentials runs the real push).
func TestGitPushURLWithoutCredentials(t *testing.T) {
	for raw, want := range map[string]string{
		"https://gitlab-ci-token:tok@example.invalid/o/r.git": "https://example.invalid/o/r.git",
		"https://ghp_tok@example.invalid:8443/o/r.git?x=1#f":  "https://example.invalid:8443/o/r.git?x=1#f",
		"http://a:b@c@example.invalid/r":                      "http://example.invalid/r",
		"ssh://git:pw@example.invalid/r.git":                  "ssh://example.invalid/r.git",
		"https://example.invalid/a@b/r.git":                   "https://example.invalid/a@b/r.git",
		"ssh://git@example.invalid/r.git":                     "ssh://git@example.invalid/r.git",
		"git@example.invalid:o/r.git":                         "git@example.invalid:o/r.git",
		"../rr.git":                                           "../rr.git",
		"origin":                                              "origin",
		"https://[::1]:80/%zz":                                "https://[::1]:80/%zz",
	} {
		if got := withoutCredentials(raw); got != want {
			t.Errorf("withoutCredentials(%q) = %q, want %q", raw, got, want)
		}
	}
}
