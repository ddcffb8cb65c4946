package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// TestStarlarkChildScriptResolvesAtTheTop: an imported child's
// host.starlark.run script path resolves against the top story's
// directory, as both engines run it (an import re-bases prompt and schema
// paths, not scripts): the existing engine's validate refuses a child
// whose script is only beside the child ("not found (resolved to
// <top>/scripts/s.star)") and accepts one whose script is at the top.
func TestStarlarkChildScriptResolvesAtTheTop(t *testing.T) {
	parent := "app: {id: p}\nimports:\n  kid: {source: ./kid}\nroot: a\nintents: {enter: {}}\nstates:\n  a:\n    on:\n      enter: [{target: kid}]\n"
	child := "app: {id: k}\nroot: s\nstates:\n  s:\n    on_enter:\n      - invoke: host.starlark.run\n        with: {script: scripts/s.star}\n"
	for _, tc := range []struct {
		name, at, want string
	}{
		{"beside the child only", "kid/scripts/s.star", `host.starlark.run script "scripts/s.star" not found (resolved to "` + filepath.Join("DIR", "scripts", "s.star") + `")`},
		{"at the top", "scripts/s.star", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", parent)
			write(t, dir, "kid/app.yaml", child)
			write(t, dir, tc.at, "def main(ctx):\n    return {}\n")
			write(t, dir, tc.at+".yaml", "inputs: {}\noutputs: {}\n")
			_, ds := Load(dir, story.Options{LookupEnv: noEnv})
			var got []string
			for _, d := range ds {
				if d.Rule == ruleStarlark.ID {
					got = append(got, strings.ReplaceAll(d.Message, dir, "DIR"))
				}
			}
			if want := tc.want; want == "" && len(got) > 0 || want != "" && (len(got) != 1 || !strings.HasSuffix(got[0], want)) {
				t.Errorf("starlark findings %q, want %q", got, want)
			}
		})
	}
}

// TestStarlarkFilesLinkedOutAreNotRead: a host.starlark.run script or
// sidecar linked out of the story's directory is refused unread, with the
// same finding whether its target exists or not. validate read a sidecar
// linked to a file outside and quoted what it declared ("input "n" is
// declared int") or its YAML error, and told a dangling link out ("not
// found") from one to an existing file.
func TestStarlarkFilesLinkedOutAreNotRead(t *testing.T) {
	src := "app: {id: s}\nroot: a\nstates:\n  a:\n    on_enter:\n      - invoke: host.starlark.run\n        with: {script: scripts/s.star, inputs: {n: text}}\n"
	findings := func(t *testing.T, exists bool, link string) []string {
		t.Helper()
		top := t.TempDir()
		dir, outside := filepath.Join(top, "story"), filepath.Join(top, "outside")
		write(t, dir, "app.yaml", src)
		write(t, dir, ".kitsoki/.keep", "")
		if exists {
			write(t, outside, "s.star", "def main(ctx):\n    return {}\n")
			write(t, outside, "s.star.yaml", "inputs:\n  n: {type: int}\n")
		}
		if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"s.star", "s.star.yaml"} {
			if f != link {
				write(t, dir, "scripts/"+f, map[string]string{"s.star": "def main(ctx):\n    return {}\n", "s.star.yaml": "inputs: {}\n"}[f])
				continue
			}
			if err := os.Symlink(filepath.Join("..", "..", "outside", f), filepath.Join(dir, "scripts", f)); err != nil {
				t.Skip(err)
			}
		}
		_, ds := Load(dir, story.Options{LookupEnv: noEnv})
		var got []string
		for _, d := range ds {
			if d.Rule == ruleStarlark.ID {
				got = append(got, strings.ReplaceAll(d.Message, dir, "DIR"))
			}
		}
		return got
	}
	for _, link := range []string{"s.star", "s.star.yaml"} {
		t.Run(link, func(t *testing.T) {
			there, absent := findings(t, true, link), findings(t, false, link)
			if len(there) != 1 || !strings.Contains(there[0], "leads outside the app root through a symbolic link") || strings.Contains(there[0], "declared int") {
				t.Errorf("findings %q, want one: the %s leads outside, nothing it declares", there, link)
			}
			if strings.Join(there, "\n") != strings.Join(absent, "\n") {
				t.Errorf("findings differ by whether the target exists:\n%q\n%q", there, absent)
			}
		})
	}
}

// TestStarlarkSidecarReadOncePerCheck: a script many effects run has its
// sidecar read and parsed once per check, each effect still checked
// against it. Before, every effect read and parsed it again: 2,000 calls
// of one script with a 1 MB sidecar kept validate busy for two minutes
// (figures in this test's commit).
func TestStarlarkSidecarReadOncePerCheck(t *testing.T) {
	dir := t.TempDir()
	src := "app: {id: s}\nroot: a\nstates:\n  a:\n    on_enter:\n" + strings.Repeat("      - {invoke: host.starlark.run, with: {script: scripts/s.star, inputs: {n: text}}}\n", 40)
	write(t, dir, "app.yaml", src)
	write(t, dir, "scripts/s.star", "def main(ctx, inputs):\n    return {}\n")
	write(t, dir, "scripts/s.star.yaml", "inputs: {n: {type: int}}\noutputs: {}\n")
	st, _ := story.Load(filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: noEnv})
	if st == nil {
		t.Fatal("the story does not load")
	}
	c := &checker{st: st, rep: &yamlnode.Reporter{}, src: &sources{read: st.Source}, files: map[string]fileAt{}, cc: map[compileKey]error{}}
	checkStarlark(c)
	if len(c.rep.Diags) != 40 {
		t.Errorf("%d findings, want one per effect (40): %v", len(c.rep.Diags), c.rep.Diags)
	}
	if len(c.sidecars) != 1 {
		t.Errorf("%d sidecars held, want the one read once", len(c.sidecars))
	}
}
