package flowtest

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestLintParStartStray: a parallel initial_state naming strays (paths
// under no region) beside known leaves starts at those leaves, a region
// named by none taking nothing; naming strays only, it has no leaf, so a
// leaf's intent is refused and an arc of the parallel state or above it
// fails GUARD_FAILED (conformance lint-par-start-stray, against its
// upstream.json).
func TestLintParStartStray(t *testing.T) {
	const noLeaf = `whose entries all lie under no region of "top.p": the machine starts with no leaf of it`
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["a"+o+".yaml"] = `turns[0]: intent "gb" is not taken at "top.p#top.p.ra.a1|top.p.zz.b1"`
		want["b"+o+".yaml"] = `turns[1]: intent "look" is not taken at "top.p#top.p.ra.a2"`
		want["d"+o+".yaml"] = `turns[0]: intent "pk" is fired at "top.p#top.p.zz.b1", ` + noLeaf + `, and the arc of "top.p" for it has no leaf to be taken from: the turn is rejected GUARD_FAILED`
		want["e"+o+".yaml"] = `the arc of "top" for it has no leaf to be taken from: the turn is rejected GUARD_FAILED`
		want["f"+o+".yaml"] = `turns[0]: intent "ga" is fired at "top.p#top.p.zz.b1", ` + noLeaf + `, and no state takes it there: the turn is rejected INTENT_NOT_ALLOWED_IN_STATE`
		want["g"+o+".yaml"] = `turns[0]: intent "gb" is not taken at "top.p#top.p.ra.a1"`
		want["h"+o+".yaml"] = ""
		want["i"+o+".yaml"] = ""
		want["j"+o+".yaml"] = ""
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-start-stray", want, ruleRejected, ruleWrongState)
}

// TestLintParStartTwoLeaves: a start listing two leaves of one region
// keeps them for the first turn's judgement: an intent none of them
// takes is refused, printed as written on the orchestrator path and
// sorted on the legacy one; no move from there is followed
// (conformance par-start-two-leaves, against its upstream.json).
func TestLintParStartTwoLeaves(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/par-start-two-leaves", map[string]string{
		"a_restart_cross_legacy.yaml":       unwarned,
		"b_restart_emit_legacy.yaml":        unwarned,
		"c_restart_same_region_legacy.yaml": unwarned,
		"d_two_sorted_legacy.yaml":          `turns[0]: intent "y" is not taken at "p#p.ra.a1|p.ra.a2|p.rb.b1"`,
		"d_two_sorted_orch.yaml":            `turns[0]: intent "y" is not taken at "p#p.ra.a1|p.ra.a2|p.rb.b1"`,
		"e_two_reversed_legacy.yaml":        `turns[0]: intent "y" is not taken at "p#p.ra.a1|p.ra.a2|p.rb.b1"`,
		"e_two_reversed_orch.yaml":          `turns[0]: intent "y" is not taken at "p#p.ra.a2|p.ra.a1|p.rb.b1"`,
		"f_repeat_legacy.yaml":              "",
		"f_repeat_orch.yaml":                "",
	}, ruleRejected, ruleWrongState)
}

// TestLintParStartEmptyEntries: a parallel start whose entries are all
// empty (p#, p#|) starts with no leaf and allows nothing, as one whose
// entries lie in no region: the first intent is refused
// INTENT_NOT_ALLOWED_IN_STATE on both paths (conformance
// par-start-entry-forms empty, bar and their _m; upstream fails them).
func TestLintParStartEmptyEntries(t *testing.T) {
	dir := "../engine/testdata/conformance/par-start-entry-forms"
	st := loadGoldenStory(t, dir)
	for _, name := range []string{"empty.yaml", "empty_m.yaml", "bar.yaml", "bar_m.yaml"} {
		var got []diag.Diagnostic
		for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "flows", name)) {
			if d.Rule == ruleRejected.ID {
				got = append(got, d)
			}
		}
		wantFinding(t, got, `turns[0]: intent "mra" is fired at "p#`)
		if len(got) > 0 && !strings.Contains(got[0].Message, "rejected INTENT_NOT_ALLOWED_IN_STATE on both engines") {
			t.Errorf("%s: %s", name, got[0].Message)
		}
	}
}
