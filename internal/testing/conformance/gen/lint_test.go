package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// lintLoads reports whether the story in dir loads here and, when it
// does, whether its fixture passes.
func lintLoads(t *testing.T, dir string) (loads, passes bool) {
	t.Helper()
	fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "*.yaml"), false, nil)
	if err != nil || len(fs) != 1 {
		return false, false
	}
	rs := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(t.Context(), fs)
	if len(rs) != 1 || rs[0].Fatal != nil {
		return false, false
	}
	return true, len(rs[0].Failures) == 0
}

// The lint stories gen writes load here exactly when no mistake upstream
// refuses was drawn, and then their fixture passes; mistakes and
// near-misses are both drawn, with the import and include forms; the same
// seed writes the same bytes.
func TestLintStoriesVerdicts(t *testing.T) {
	t.Parallel()
	const n = 60
	dir := writeSeeded(t, writeLint, n, 17, "000/app.yaml", "001/flows/f.yaml", "002/mistake.txt")
	assertDrawn(t, dir, []string{"refuse ", "load ", "include:", "imports:", "type: parallel", "agent_plugins:", "selection:", "choice:", "timeout:"})
	refused := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		drawn, _ := os.ReadFile(filepath.Join(d, "mistake.txt"))
		want := !strings.Contains(string(drawn), "refuse ")
		if !want {
			refused++
		}
		loads, passes := lintLoads(t, d)
		if loads != want || (loads && !passes) {
			t.Errorf("%s (%s): loads %v, fixture passes %v; want loads %v", d, strings.TrimSpace(string(drawn)), loads, passes, want)
		}
	}
	if refused == 0 || refused > n*3/4 {
		t.Errorf("%d of %d stories carry a refused mistake, want some, not most", refused, n)
	}
}

// Each mistake alone makes the clean story (with an include: file and an
// imported child) refused here, and each near-miss alone leaves it
// loading with a passing fixture, as the existing engine does (the
// catalogue's verdicts, checked against it with compare.sh).
func TestLintChangesAlone(t *testing.T) {
	t.Parallel()
	for _, set := range []struct {
		changes []lintChange
		load    bool
	}{{lintMistakes, false}, {lintNearMisses, true}} {
		for i, ch := range set.changes {
			g := newGen(uint64(900 + i))
			s := g.lintClean("alone", true, true)
			if !ch.apply(g, s) {
				t.Errorf("%s: does not apply to the clean story", ch.name)
				continue
			}
			dir := t.TempDir()
			if err := writeFiles(dir, s.out()); err != nil {
				t.Fatal(err)
			}
			loads, passes := lintLoads(t, dir)
			if loads != set.load || (loads && !passes) {
				t.Errorf("%s: loads %v, fixture passes %v; want loads %v", ch.name, loads, passes, set.load)
			}
		}
	}
}
