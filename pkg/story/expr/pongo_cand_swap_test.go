package expr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncludeCandidateSwappedOutTellsNothing: resolve checked each
// candidate of an include against the roots, then stat'ed it by path: a
// candidate swapped for a link out in between was taken when the target
// outside was a file (and refused as leading out), and passed over for the
// next candidate when it was a directory or missing (and the include read
// as missing there), so the error told what lies outside. The look goes
// through the roots now: such a candidate is refused, whatever its target.
func TestIncludeCandidateSwappedOutTellsNothing(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "file.md"), []byte("OUTSIDE-CANARY"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	errs := func(target string) string {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		for _, d := range []string{a, b} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		x := filepath.Join(b, "x.md")
		if err := os.WriteFile(x, []byte("inside"), 0o644); err != nil {
			t.Fatal(err)
		}
		l := NewPongoLoader(a, b)
		l.candLooked = func(p string) {
			if p != x {
				return
			}
			if err := os.Remove(x); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.Symlink(target, x); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}
		// pongo2's Abs of the include, the one resolve the swap falls in
		got := fileLoader{l: l}.Abs("", "x.md")
		if strings.HasPrefix(got, refusedPrefix) {
			l.mu.Lock()
			got = "refused: " + l.getErrs[got].Error()
			l.mu.Unlock()
		}
		return strings.ReplaceAll(strings.ReplaceAll(got, dir, "DIR"), target, "TARGET")
	}
	file := errs(filepath.Join(outside, "file.md"))
	for _, target := range []string{"missing.md", "dir.md"} {
		if got := errs(filepath.Join(outside, target)); got != file {
			t.Errorf("a link out to %s:\n%s\na link out to a file:\n%s", target, got, file)
		}
	}
	if !strings.HasPrefix(file, "refused: ") || strings.Contains(file, "CANARY") || strings.Contains(file, outside) {
		t.Errorf("want the include refused, naming nothing outside:\n%s", file)
	}
}
