package expr

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestIncludeLinkedOutTellsNothingOfItsTarget: an include of a file (or
// through a directory) that a symlink leads out of the template roots is
// refused whether its target exists or not, so a repository cannot learn
// which paths exist on the machine validating it. Before, a dangling link
// out read as a missing template ("unable to resolve") and one to an
// existing file as refused. A dangling link that stays inside is still a
// missing template. So is a dangling link reached through another link.
func TestIncludeLinkedOutTellsNothingOfItsTarget(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "there.pongo"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for link, target := range map[string]string{
		"there.pongo":   filepath.Join(outside, "there.pongo"),
		"missing.pongo": filepath.Join(outside, "missing.pongo"),
		"reldir":        "../" + filepath.Base(outside) + "-gone", // a dangling relative link out
		"dir":           outside,
		"inside.pongo":  "nothing-here.pongo",
		"hop.pongo":     "hop2.pongo", // two hops: inside, then out
		"hop2.pongo":    filepath.Join(outside, "missing.pongo"),
		"hopdir":        "hopdir2",
		"hopdir2":       filepath.Join(outside, "gone"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	l := NewPongoLoader(dir)
	compile := func(name string) error {
		_, err := l.Compile(`{% include "` + name + `" %}`)
		return err
	}
	for _, name := range []string{"there.pongo", "missing.pongo", "reldir/x.pongo", "dir/there.pongo", "dir/missing.pongo", "dir/sub/missing.pongo", "hop.pongo", "hopdir/x.pongo"} {
		if err := compile(name); !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("include %q: %v; want the refusal", name, err)
		}
	}
	if err := compile("inside.pongo"); err == nil || errors.Is(err, ErrOutsideRoots) {
		t.Errorf("a dangling link inside: %v; want a missing template", err)
	}
}
