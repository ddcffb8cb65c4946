package expr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestIncludeCandidateSwappedOutTellsNothing: resolve checked each
// candidate of an include against the roots, then stat'ed it by path: a
// candidate swapped for a link out in between was taken when the target
// outside was a file (and refused as leading out), and passed over for the
// next candidate when it was a directory or missing (and the include read
// as missing there), so the answer told what lies outside. The look goes
// through the roots now: such a candidate is refused, whatever its target.
func TestIncludeCandidateSwappedOutTellsNothing(t *testing.T) {
	outside, targets := storytest.LinkOutTargets(t)
	got := storytest.SameForEveryTarget(t, outside, targets, func(target string) string {
		dir := storytest.TempTree(t, map[string]string{"a/.keep": "", "b/x.md": "inside"})
		x := filepath.Join(dir, "b", "x.md")
		l := NewPongoLoader(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
		l.candLooked = func(p string) {
			if p != x {
				return
			}
			if err := os.Remove(x); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, x); err != nil {
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
		return strings.ReplaceAll(got, dir, "DIR")
	})
	if !strings.HasPrefix(got, "refused: ") {
		t.Errorf("want the include refused:\n%s", got)
	}
}
