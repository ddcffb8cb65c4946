package story

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestKitsokiDirSwappedForALinkOutTellsNothing: HasKitsokiDir looked at
// .kitsoki by its name, then opened it by path and listed it: swapped for
// a link out in between, the directory outside was listed, and whether it
// held more than kitsoki's own output (or was missing, or a file) decided
// the project root. A swapped .kitsoki now marks as a link does, whatever
// lies outside, and nothing outside is listed.
func TestKitsokiDirSwappedForALinkOutTellsNothing(t *testing.T) {
	outside := storytest.TempTree(t, map[string]string{
		"own/sessions/x.jsonl": "",
		"more/notes.md":        storytest.OutsideCanary,
		"file":                 "",
	})
	storytest.SameForEveryTarget(t, outside, []string{
		filepath.Join(outside, "own"), filepath.Join(outside, "more"), filepath.Join(outside, "file"), filepath.Join(outside, "missing"),
	}, func(target string) string {
		d := storytest.TempTree(t, map[string]string{".kitsoki/sessions/y.jsonl": ""})
		p := filepath.Join(d, ".kitsoki")
		return fmt.Sprint(hasKitsokiDir(d, func() {
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}))
	})
}
