package fold

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
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
		bound := RepeatsAtMost(st, 0)
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

// testRepeatLimit is the fold's limit the refusal tests fold with: the
// production one (MaxRepeats) refuses the same way, a hundred times later.
const testRepeatLimit = 15_000

// overChain and underChain are chains of rich stories whose folds repeat
// about 16,000 (past testRepeatLimit) and 1,900 (under it) world resets
// and intent spellings, in the proportions of a tree past MaxRepeats.
func overChain(t testing.TB) string  { return importChain(t, 60, true, 6) }
func underChain(t testing.TB) string { return importChain(t, 20, true, 6) }

// TestRepeatsAtMostPredictsTheLimit: the chain TestDeepImportChainRepeatsAreBounded
// folds past the limit is bounded past it, and its one problem is marked
// OverRepeats; the 20-level chain that folds is bounded under it.
func TestRepeatsAtMostPredictsTheLimit(t *testing.T) {
	over := loadAnyway(t, overChain(t))
	if b := RepeatsAtMost(over, testRepeatLimit); b <= testRepeatLimit {
		t.Errorf("60 levels: RepeatsAtMost = %d, want past %d", b, testRepeatLimit)
	}
	_, err := New(over, Options{MaxRepeats: testRepeatLimit})
	var fe *Error
	if !errors.As(err, &fe) || len(fe.Problems) != 1 || !fe.Problems[0].OverRepeats {
		t.Fatalf("New = %v, want one problem marked OverRepeats", err)
	}
	if b := RepeatsAtMost(loadAnyway(t, underChain(t)), testRepeatLimit); b > testRepeatLimit {
		t.Errorf("20 levels: RepeatsAtMost = %d, want at most %d", b, testRepeatLimit)
	}
}

// TestProductionRepeatLimit pins the limit run, test and validate fold
// with: options that name none (the engine's, validate's by default) fold
// with MaxRepeats, a million; the chain a small limit refuses folds under
// it.
func TestProductionRepeatLimit(t *testing.T) {
	if MaxRepeats != 1_000_000 {
		t.Errorf("MaxRepeats = %d, want 1,000,000", MaxRepeats)
	}
	for _, o := range []Options{{}, {Phases: func(*story.Story) error { return nil }, Bindings: map[string]string{}}, {MaxRepeats: -1}} {
		if got := o.RepeatLimit(); got != MaxRepeats {
			t.Errorf("%+v: RepeatLimit = %d, want MaxRepeats", o, got)
		}
	}
	if got := (Options{MaxRepeats: 7}).RepeatLimit(); got != 7 {
		t.Errorf("MaxRepeats 7: RepeatLimit = %d", got)
	}
	over := loadAnyway(t, overChain(t))
	if b := RepeatsAtMost(over, 0); b <= testRepeatLimit || b > MaxRepeats {
		t.Errorf("RepeatsAtMost(limit 0) = %d, want past %d and at most %d", b, testRepeatLimit, MaxRepeats)
	}
	if _, err := New(over, Options{}); err != nil {
		t.Errorf("the zero options refuse what only a small limit refuses: %v", err)
	}
}
