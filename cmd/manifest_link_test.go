package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestLinkedOutTellsNothingOfItsTarget: a story directory whose
// app.yaml is a symlink out of the project gets the same answer from every
// command that takes a story directory, whether the link's target exists or
// not. Before, a dangling link was "not a story directory" and one to an
// existing file the load's refusal, so the output told a repository's
// author which paths exist on the machine running it.
func TestManifestLinkedOutTellsNothingOfItsTarget(t *testing.T) {
	outside := t.TempDir()
	there := filepath.Join(outside, "there.yaml")
	if err := os.WriteFile(there, []byte("app: { id: linked }\nroot: done\nstates:\n  done:\n    terminal: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate"}, {"graph"}, {"run"}, {"plugins"}, {"eval", "check"}} {
		t.Run(args[0]+strings.Join(args[1:], ""), func(t *testing.T) {
			var outs []string
			for _, target := range []string{there, filepath.Join(outside, "missing.yaml")} {
				dir := filepath.Join(t.TempDir(), "s")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, filepath.Join(dir, "app.yaml")); err != nil {
					t.Fatal(err)
				}
				stdout, stderr, code := hostile(t, "", append(args, dir)...)
				if code == 0 {
					t.Fatalf("kitsoki %v accepted a manifest linked to %s:\n%s%s", args, target, stdout, stderr)
				}
				out := strings.ReplaceAll(strings.ReplaceAll(stdout+stderr, filepath.Dir(dir), "TMP"), target, "TARGET")
				outs = append(outs, out)
			}
			if outs[0] != outs[1] {
				t.Errorf("kitsoki %v: an existing target:\n%s\na missing one:\n%s", args, outs[0], outs[1])
			}
		})
	}
}
