package fold

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestRepeatsAtMostBoundsTheFold: RepeatsAtMost is never under what the
// fold counts against MaxRepeats, for chains with world keys and intents
// and for every story under testdata that folds; for a chain of stories
// with world keys and no arcs it is exact.
func TestRepeatsAtMostBoundsTheFold(t *testing.T) {
	check := func(name, dir string, exact bool) {
		st := loadAnyway(t, dir)
		f, err := New(st, Options{})
		if err != nil {
			return // a story the fold refuses repeats nothing to compare
		}
		bound := RepeatsAtMost(st)
		if f.repeats > bound || exact && f.repeats != bound {
			t.Errorf("%s: the fold repeats %d, RepeatsAtMost says %d", name, f.repeats, bound)
		}
	}
	for _, c := range []struct{ n, keys int }{{3, 2}, {12, 5}, {30, 1}} {
		check(fmt.Sprintf("chain %d×%d", c.n, c.keys), importChain(t, c.n, true, c.keys), false)
	}
	check("world chain", storytest.WorldChain(t, 12, 7), true)
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "app.yaml" {
			check(p, filepath.Dir(p), false)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRepeatsAtMostPredictsTheLimit: the chain TestDeepImportChainRepeatsAreBounded
// folds past MaxRepeats is bounded past it, and its one problem is marked
// OverRepeats; the 20-level chain that folds is bounded under it.
func TestRepeatsAtMostPredictsTheLimit(t *testing.T) {
	over := loadAnyway(t, importChain(t, 60, true, 600))
	if b := RepeatsAtMost(over); b <= MaxRepeats {
		t.Errorf("60 levels: RepeatsAtMost = %d, want past %d", b, MaxRepeats)
	}
	_, err := New(over, Options{})
	var fe *Error
	if !errors.As(err, &fe) || len(fe.Problems) != 1 || !fe.Problems[0].OverRepeats {
		t.Fatalf("New = %v, want one problem marked OverRepeats", err)
	}
	if b := RepeatsAtMost(loadAnyway(t, importChain(t, 20, true, 600))); b > MaxRepeats {
		t.Errorf("20 levels: RepeatsAtMost = %d, want at most %d", b, MaxRepeats)
	}
}
