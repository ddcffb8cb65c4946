package lint

import (
	"path/filepath"
	"strings"
	"testing"

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
