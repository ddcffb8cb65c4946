package plugin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
)

// hostileRepo is an operator's directory holding a checkout whose
// repository files are symlinks leading out of it:
//
//	outside/secret.yaml                      a file the repository must never read
//	repo/.git/                               the checkout's boundary
//	repo/.kitsoki/plugins.yaml  -> outside   the repository's profile
//	repo/.kitsoki/plugins/x/manifest.yaml -> outside
//	repo/story/                              the story
func hostileRepo(t *testing.T, profileLink, manifestLink bool) (outside, storyDir string) {
	t.Helper()
	root := t.TempDir()
	outside = writeFile(t, filepath.Join(root, "outside", "secret.yaml"), "CANARYplugin: CANARYplugin\nid: CANARYplugin\nversion: 1\n")
	repo := filepath.Join(root, "repo")
	storyDir = filepath.Join(repo, "story")
	for _, d := range []string{filepath.Join(repo, ".git"), storyDir, filepath.Join(repo, ProfileDir, "plugins", "x")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if profileLink {
		if err := os.Symlink(outside, filepath.Join(repo, ProfileDir, ProfileFile)); err != nil {
			t.Fatal(err)
		}
	}
	if manifestLink {
		if err := os.Symlink("../../../../outside/secret.yaml", filepath.Join(repo, ProfileDir, "plugins", "x", ManifestFile)); err != nil {
			t.Fatal(err)
		}
	}
	return outside, storyDir
}

// TestRepositoryProfileThroughSymlinkOutIsRefusedUnread: a repository's
// .kitsoki/plugins.yaml that is a symlink leading out of the checkout is
// refused, naming the file and the fix, and nothing of the target is read
// (its keys would otherwise be quoted in "unknown key" diagnostics).
func TestRepositoryProfileThroughSymlinkOutIsRefusedUnread(t *testing.T) {
	_, storyDir := hostileRepo(t, true, false)
	_, err := Assemble(Options{StoryDir: storyDir, NoUserProfile: true, Getenv: noEnv})
	if _, ok := errors.AsType[*ProfileError](err); !ok {
		t.Fatalf("Assemble = %v, want a *ProfileError", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "CANARY") {
		t.Fatalf("the error quotes the file outside the repository:\n%s", msg)
	}
	for _, want := range []string{filepath.Join("repo", ProfileDir, ProfileFile), "cannot read the repository's plugin profile: it goes through a symlink", "outside"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not say %q:\n%s", want, msg)
		}
	}
	if ds := ProfileDiagnostics(Options{StoryDir: storyDir, NoUserProfile: true, Getenv: noEnv}); len(ds) == 0 || strings.Contains(ds[0].String(), "CANARY") {
		t.Errorf("ProfileDiagnostics = %v, want one refusal that quotes nothing outside", ds)
	}
}

// TestRepositoryManifestThroughSymlinkOutIsSkippedUnread: a manifest
// under the repository's .kitsoki/plugins/ that is a symlink leading out
// is skipped with a warning naming it, unread.
func TestRepositoryManifestThroughSymlinkOutIsSkippedUnread(t *testing.T) {
	_, storyDir := hostileRepo(t, false, true)
	a, err := Assemble(Options{StoryDir: storyDir, NoUserProfile: true, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range a.Plugins {
		if strings.Contains(p.ID, "CANARY") {
			t.Fatalf("the manifest outside the repository was read: plugin %q", p.ID)
		}
	}
	var found bool
	for _, w := range a.Warnings {
		if strings.Contains(w.Message, "CANARY") {
			t.Fatalf("a warning quotes the file outside: %+v", w)
		}
		if strings.HasSuffix(w.File, filepath.Join("x", ManifestFile)) && strings.Contains(w.Message, "symlink") {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning names the refused manifest: %+v", a.Warnings)
	}
}

// TestOperatorProfileAboveTheCheckoutMayBeASymlink: the profile above
// the checkout is the operator's, and a symlink there is followed as
// before (an operator may keep it with their dotfiles).
func TestOperatorProfileAboveTheCheckoutMayBeASymlink(t *testing.T) {
	outside, storyDir := hostileRepo(t, false, false)
	real := writeFile(t, filepath.Join(filepath.Dir(outside), "op.yaml"), "disable: [host.run]\n")
	above := filepath.Join(filepath.Dir(filepath.Dir(outside)), ProfileDir)
	if err := os.MkdirAll(above, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(above, ProfileFile)); err != nil {
		t.Fatal(err)
	}
	a, err := Assemble(Options{StoryDir: storyDir, NoUserProfile: true, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if _, off := a.hostDisabled("host.run"); !off {
		t.Errorf("the operator's profile above the checkout was not applied: %+v", a.Layers)
	}
}

// TestReportJSONEscapesControls: a manifest's summary and version carry C1
// and bidi controls that encoding/json leaves raw; the report's JSON
// (kitsoki plugins --json) holds them as \uXXXX.
func TestReportJSONEscapesControls(t *testing.T) {
	r := &Report{Plugins: []PluginStatus{{Descriptor: Descriptor{ID: "x", Version: "1\u202e", Summary: "s\u009b2J\u2066"}}}}
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsFunc(string(b), termsafe.IsControl) || !strings.Contains(string(b), `s\u009b2J\u2066`) {
		t.Errorf("report JSON holds raw controls:\n%s", b)
	}
}

// TestRepositoryLinksOutTellNothingOfTheirTargets: a repository's
// .kitsoki/plugins.yaml, or its .kitsoki, linked to an existing file or
// directory outside gets what a dangling link gets; the links were
// followed when looked for, so an existing target was refused (exit 2,
// a warning) and a dangling one passed over, and a repository learned
// from the exit code which paths exist on the machine (red team 47).
func TestRepositoryLinksOutTellNothingOfTheirTargets(t *testing.T) {
	for _, link := range []string{filepath.Join(ProfileDir, ProfileFile), ProfileDir} {
		got := map[string]string{}
		for _, target := range []string{"secret", "nowhere"} {
			outside, storyDir := hostileRepo(t, false, false)
			repo := filepath.Dir(storyDir)
			if err := os.RemoveAll(filepath.Join(repo, ProfileDir)); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(repo, ProfileDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if link == ProfileDir {
				if err := os.Remove(filepath.Join(repo, ProfileDir)); err != nil {
					t.Fatal(err)
				}
			}
			to := filepath.Join(filepath.Dir(outside), target)
			switch {
			case target == "secret" && link == ProfileDir:
				to = filepath.Dir(outside) // an existing directory
			case target == "secret":
				to = outside // an existing file
			}
			if err := os.Symlink(to, filepath.Join(repo, link)); err != nil {
				t.Fatal(err)
			}
			a, err := Assemble(Options{StoryDir: storyDir, NoUserProfile: true, Getenv: noEnv})
			var said []string
			if err != nil {
				said = append(said, err.Error())
			}
			if a != nil {
				for _, w := range a.Warnings {
					said = append(said, w.File+": "+w.Message)
				}
			}
			out := strings.ReplaceAll(strings.Join(said, "\n"), filepath.Dir(repo), "TOP")
			if strings.Contains(out, "CANARY") {
				t.Fatalf("%s -> %s quotes the target:\n%s", link, target, out)
			}
			got[target] = out
		}
		if got["secret"] != got["nowhere"] || !strings.Contains(got["secret"], "symlink") {
			t.Errorf("%s linked out: an existing target says\n%q\na dangling one\n%q\nwant the same refusal", link, got["secret"], got["nowhere"])
		}
	}
}
