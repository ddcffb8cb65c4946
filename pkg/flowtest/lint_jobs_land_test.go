package flowtest

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestLintLandsJobs: the settle walk follows a background job from its
// submission to its landing on an advance_clock (conformance
// lint-jobs-land): the on_complete chain judged on the stub's answer (a,
// c), its rendered target taken (b), a clock-only turn landing it (d, e), no
// job when the turn never enters the state that starts it (g), none of
// its chain when the machine left its origin first (h, i), a timeout the turn armed that the advance
// does not reach (j), a chain's template reading the slots a completion
// turn does not have (k).
func TestLintLandsJobs(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-jobs-land", map[string]string{
		"a_guard_false.yaml":     `expect_world["outcome"]: "red", but after the turns before it and this one the fixture certainly holds "" there`,
		"b_target_rendered.yaml": `expect_state: "done", but the turn's intent "start", fired at "idle" (where the fixture starts (initial_state)), ends at "failed"`,
		"c_lands.yaml":           "",
		"d_later_clock.yaml":     "",
		"e_clock_wrong.yaml":     `expect_state: "failed", but the turn advances the clock at "running"`,
		"g_never_started.yaml":   `expect_world["result"]: "fine", but after the turns before it and this one the fixture certainly holds "" there`,
		"h_left_origin.yaml":     `expect_world["result"]: "fine", but after the turns before it and this one the fixture certainly holds "" there`,
		"i_left_passes.yaml":     "",
		"k_no_slots.yaml":        `expect_world["result"]: "hi", but after the turns before it and this one the fixture certainly holds null there`,
		"j_timeout_waits.yaml":   `expect_state: "failed", but the turn's intent "slow", fired at "idle" (where the fixture starts (initial_state)), ends at "done"`,
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintListenerGone: once a user turn rests the session in a terminal
// state, no job lands for the rest of the run, even after an arc leaves
// it (conformance storymut-terminal-listener-gone): after_terminal.yaml,
// which upstream passes, expects r still "" after two jobs; the walk
// gives their landings up instead of running their on_complete.
func TestLintListenerGone(t *testing.T) {
	dir := "../engine/testdata/conformance/storymut-terminal-listener-gone"
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	for _, name := range []string{"after_terminal.yaml", "started_terminal.yaml"} {
		for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "flows", name)) {
			if d.Rule == ruleWorldKnown.ID || d.Rule == ruleInboxKnown.ID || d.Rule == ruleWrongState.ID {
				t.Errorf("%s: upstream passes it, the lint says %v", name, d)
			}
		}
	}
}

// TestLintPartialAdvance: an advance_clock that ends with a job its stub
// answers still to land aborts upstream's whole run (conformance
// lint-partial-advance: aborts/ holds the two it aborted, flows/ the
// controls it passed): a delay past the advance, a delayed job a landing
// starts; never a covering advance, a 0s one, or a landing's job answered
// at once.
func TestLintPartialAdvance(t *testing.T) {
	dir := "../engine/testdata/conformance/lint-partial-advance"
	lintGolden(t, dir, map[string]string{"covered.yaml": "", "two-advances.yaml": "", "landing-now.yaml": ""}, rulePartialAdvance)
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	for name, want := range map[string]string{
		"partial.yaml": `turns[1].advance_clock: 5s ends with the background host.job job submitted at "s" still to land (this fixture's stub answers it 5s later)`,
		"landing.yaml": `a job a landing starts is never covered by the advance that landed it`,
	} {
		var got []string
		for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "aborts", name)) {
			if d.Rule == rulePartialAdvance.ID {
				got = append(got, d.Message)
			}
		}
		if len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("%s: got %q, want one %s warning holding %q", name, got, rulePartialAdvance.ID, want)
		}
	}
}

// TestLintLandsOnePerGap: the gap before a user turn lands one due job,
// the first submitted, and the walk keeps following the others
// (conformance lint-land-one-per-gap): no verdict on the later turns of
// fixtures upstream passes, and an advance landing the rest certainly
// (advance_wrong).
func TestLintLandsOnePerGap(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-land-one-per-gap", map[string]string{
		"two.yaml":           "",
		"three.yaml":         "",
		"later.yaml":         "",
		"bind.yaml":          "",
		"par.yaml":           "",
		"advance.yaml":       "",
		"advance_wrong.yaml": `turns[2].expect_world["b"]: "", but after the turns before it and this one the fixture certainly holds "y" there`,
	}, ruleWorldKnown)
}
