package cmd

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSaveFixtureNeverWritesThroughALink: a repository that planted the
// fixture --save-fixture names, or the cassette beside it, as a link to a
// file outside, or the fixture folder as a link outside, gets nothing
// written outside, with or without --force (redteam7 attack held: the
// save is refused or the link is replaced, never written through).
func TestSaveFixtureNeverWritesThroughALink(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(dir, out string) string // returns the --save-fixture path
	}{
		{"fixture linked out", func(dir, out string) string {
			f := filepath.Join(dir, "flows", "counted.yaml")
			os.Symlink(filepath.Join(out, "victim"), f)
			return f
		}},
		{"cassette beside it linked out", func(dir, out string) string {
			os.Symlink(filepath.Join(out, "victim"), filepath.Join(dir, "flows", "counted.cassette.yaml"))
			return filepath.Join(dir, "flows", "counted.yaml")
		}},
		{"folder linked out", func(dir, out string) string {
			os.Symlink(out, filepath.Join(dir, "evil"))
			return filepath.Join(dir, "evil", "counted.yaml")
		}},
	} {
		for _, force := range []bool{false, true} {
			dir := saveTree(t, "{{ world.n }}")
			out := t.TempDir()
			victim := filepath.Join(out, "victim")
			if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--intent", "count", "--intent", "count", "--save-fixture", c.plant(dir, out)}
			if force {
				args = append(args, "--force")
			}
			code, stdout, errOut := runSaving(t, dir, args...)
			if code == exitOK {
				t.Errorf("%s (force %v): saved through the link:\n%s%s", c.name, force, stdout, errOut)
			}
			if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
				t.Errorf("%s (force %v): the file outside was written (exit %d):\n%s%s", c.name, force, code, stdout, errOut)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 1 {
				t.Errorf("%s (force %v): files created outside: %v", c.name, force, ents)
			}
		}
	}
}
