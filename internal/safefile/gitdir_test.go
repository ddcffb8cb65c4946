package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// Root.InGitDir, which follows the root directory's own links once, says
// what InGitDir says of every path, with the root reached through a link
// and links inside it naming .git by the real path, the linked path, a
// relative one, a missing file under a link, and a directory a link
// leads out to; and of a root whose real directory is inside a .git one.
func TestRootInGitDirAgrees(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"real/.git/config": "token", "real/a.yaml": "a", "real/sub/b.yaml": "b", "other/.git/x": "x", "holder/.git/inner/a.yaml": "a"})
	for link, target := range map[string]string{
		"linked":           filepath.Join(base, "real"),
		"linkedIn":         filepath.Join(base, "holder", ".git", "inner"),
		"real/viaReal":     filepath.Join(base, "real", ".git"),
		"real/viaLinked":   filepath.Join(base, "linked", ".git", "config"),
		"real/sub/rel":     "../.git",
		"real/sub/plain":   "../a.yaml",
		"real/outside":     filepath.Join(base, "other", ".git"),
		"real/outsideFile": filepath.Join(base, "other", "x"),
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(base, "linked")
	want := map[string]bool{
		"a.yaml": false, "sub/b.yaml": false, "sub/plain": false, "missing/x": false, "outsideFile": false,
		".git/config": true, ".GIT/config": true, "viaReal/config": true, "viaLinked": true, "sub/rel/config": true,
		"sub/rel/missing": true, "outside/x": true,
	}
	r := NewRoot(root)
	defer r.Close()
	for rel, w := range want {
		p := filepath.Join(root, rel)
		if got := InGitDir(root, p); got != w {
			t.Errorf("InGitDir(%s) = %v, want %v", rel, got, w)
		}
		if got := r.InGitDir(p); got != w {
			t.Errorf("Root.InGitDir(%s) = %v, want %v", rel, got, w)
		}
	}
	// a root whose real directory lies in a .git directory: below it, by
	// its real path, nothing is
	in := filepath.Join(base, "linkedIn")
	ri := NewRoot(in)
	defer ri.Close()
	if p := filepath.Join(in, "a.yaml"); InGitDir(in, p) || ri.InGitDir(p) {
		t.Errorf("InGitDir(%s) = %v, Root.InGitDir = %v, want false", p, InGitDir(in, p), ri.InGitDir(p))
	}
}
