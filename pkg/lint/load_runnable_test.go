package lint

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// LoadRunnable (kitsoki test's load) refuses what Load refuses: on every
// broken story (one a rule, lint-only ones included, phases and imports
// among them) and every corpus story, the story loads or not alike, its
// blocking errors are Load's in Load's order, and every finding it
// reports is one of Load's, in the same order; it skips the findings of
// lint-only rules (which a run never prints).
func TestLoadRunnableKeepsWhatRefuses(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(fixtures + "/broken/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("broken stories: %v", err)
	}
	dirs = append(dirs, corpusDirs(t)...)
	skipped := 0
	for _, dir := range dirs {
		full, fds := Load(dir, story.Options{})
		run, rds := LoadRunnable(dir, story.Options{})
		if (full == nil) != (run == nil) {
			t.Errorf("%s: Load's story nil %v, LoadRunnable's %v", dir, full == nil, run == nil)
			continue
		}
		if fb, rb := refusing(fds, full == nil), refusing(rds, run == nil); !reflect.DeepEqual(fb, rb) {
			t.Errorf("%s: Load refuses with\n %v\nLoadRunnable with\n %v", dir, fb, rb)
		}
		if !inOrder(rds, fds) {
			t.Errorf("%s: LoadRunnable's findings are not Load's, in order:\n %v\nLoad's\n %v", dir, rds, fds)
		}
		skipped += len(fds) - len(rds)
	}
	if skipped == 0 {
		t.Error("LoadRunnable skipped no finding: no lint-only pass was left out")
	}
}

// refusing are the errors of ds a run refuses with (all of them when the
// story did not load, else the blocking ones).
func refusing(ds []diag.Diagnostic, all bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error && (all || Blocking(d)) {
			out = append(out, d)
		}
	}
	return out
}

// inOrder reports whether sub is a subsequence of ds.
func inOrder(sub, ds []diag.Diagnostic) bool {
	for _, d := range sub {
		i := slices.Index(ds, d)
		if i < 0 {
			return false
		}
		ds = ds[i+1:]
	}
	return true
}
