package flowtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestLintSettleWalksBounded: the settle walks of a story's fixtures
// share one step budget. Each story's every turn is followed within the
// walk's own caps (up to 31 landings an advance, a few hops): a chain of
// jobs each entering a state of many on_enter entries, a chain of jobs
// moving between the leaves of deep state trees, a large world copied at
// every turn, a large value set at every landing. Each is charged for
// what its walk touches: one fixture spends at least floor steps (an
// entry, a node of the value, a world key, a level of the tree, once a
// turn or a landing), so a walk the budget left uncharged would fail
// here. Past the budget no turn is followed any more: the first
// fixture's wrong expect_state is still found, the last one's is not
// (without the budget it is, every fixture spending as much as the
// first), and the steps spent stop within one step of the budget.
//
// The bound is proved on small stories against a budget lowered to two
// and a half fixtures' spend; TestLintSettleStepsBudget holds the
// product's budget.
func TestLintSettleWalksBounded(t *testing.T) {
	const turns = 3 // go turns a fixture takes, each landing the whole chain
	for _, tc := range []struct {
		name, story, wrong string
		floor              int64 // steps one fixture must spend on the costly part
		step               int64 // the largest step the story charges
	}{
		// 31 landings a turn, each entering a state of 40 set: entries;
		// the largest step: a post-bind round's look at all 41 entries
		{"entries", jobChain(31, strings.Repeat("      - set: {x: 1}\n", 40), ""), "j1", turns * 31 * 40, 41},
		// 8 landings a turn, each setting a list of 501 items; the
		// largest step: the set's event, the list and a few nodes more
		{"big value", jobChain(8, "      - set: {x: ["+strings.Repeat("1,", 500)+"1]}\n", ""), "j1", turns * 8 * 501, 501 + 8},
		// a world of 1,000 declared keys, copied at every turn; the
		// largest step: a turn's start copying it, the built-in keys too
		{"large world", jobChain(3, "", worldDecls(1000)), "j1", turns * 1000, 1000 + 16},
		// 8 landings a turn between leaves 90 levels deep, each move
		// climbing out of one leaf and into the next (the largest step)
		{"deep trees", deepChain(90, 8), strings.TrimSuffix(strings.Repeat("c1.", 90), "."), turns * 8 * 2 * 90, 2*90 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := loadStory(t, tc.story)
			const fixtures = 6
			fxs := chainFixtures(t, fixtures, turns, tc.wrong)
			per := lintStateWithin(st, fxs[:1], judgeVisitBytes, settleSteps).steps.spent
			if per < tc.floor {
				t.Fatalf("one fixture spends %d steps: want at least %d, its walks' costly part", per, tc.floor)
			}
			budget := per*2 + per/2
			l := lintStateWithin(st, fxs, judgeVisitBytes, budget)
			if l.steps.spent > budget+tc.step || l.steps.spent < budget {
				t.Errorf("the walks spent %d steps, want at most the budget %d and one step (%d)", l.steps.spent, budget, tc.step)
			}
			found := map[string]bool{}
			for _, d := range l.ds {
				if d.Rule == ruleWrongState.ID {
					found[d.File] = true
				}
			}
			if first, last := fxs[0].File, fxs[fixtures-1].File; !found[first] || found[last] {
				t.Errorf("wrong expect_state found in %v: want %s's (followed within the budget), not %s's (past it)", found, first, last)
			}
		})
	}
}

// TestLintSettleStepsBudget: the budget is twenty million steps, where
// the corpus and examples spend at most a few hundred.
func TestLintSettleStepsBudget(t *testing.T) {
	if settleSteps != 20_000_000 {
		t.Fatalf("settleSteps %d, want 20,000,000", settleSteps)
	}
}

// jobChain is a story whose go takes home to j0; each jN's on_enter
// submits a job whose on_complete moves to the next, the last to home,
// then runs entries; world holds x and the declarations decls.
func jobChain(links int, entries, decls string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: {id: chain}\nroot: home\nhosts: [host.run]\nworld:\n%s  x: {type: any, default: 0}\nintents:\n  go: {}\n  look: {}\nstates:\n  home:\n    on:\n      go: [{target: j0}]\n      look: [{target: .}]\n", decls)
	for i := range links {
		next := fmt.Sprintf("j%d", i+1)
		if i+1 == links {
			next = "home"
		}
		fmt.Fprintf(&b, "  j%d:\n    on:\n      look: [{target: .}]\n    on_enter:\n      - invoke: host.run\n        background: true\n        with: {cmd: \"true\"}\n        on_complete:\n          - target: %s\n%s", i, next, entries)
	}
	return b.String()
}

// worldDecls declares n integer world keys.
func worldDecls(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  k%d: {type: integer, default: 0}\n", i)
	}
	return b.String()
}

// deepChain is jobChain over the leaves of branches trees depth deep:
// go enters the first leaf, each leaf's job moves to the next one's.
func deepChain(depth, branches int) string {
	leaf := func(i int) string { return strings.TrimSuffix(strings.Repeat(fmt.Sprintf("c%d.", i), depth), ".") }
	var b strings.Builder
	fmt.Fprintf(&b, "app: {id: deep}\nroot: home\nhosts: [host.run]\nintents:\n  go: {}\n  look: {}\nstates:\n  home:\n    on:\n      go: [{target: %s}]\n      look: [{target: .}]\n", leaf(0))
	for i := range branches {
		next := "home"
		if i+1 < branches {
			next = leaf(i + 1)
		}
		for k := range depth {
			pad := strings.Repeat("  ", 1+2*k)
			fmt.Fprintf(&b, "%sc%d:\n", pad, i)
			if k < depth-1 {
				fmt.Fprintf(&b, "%s  type: compound\n%s  initial: c%d\n%s  states:\n", pad, pad, i, pad)
				continue
			}
			fmt.Fprintf(&b, "%s  on_enter:\n%s    - invoke: host.run\n%s      background: true\n%s      with: {cmd: \"true\"}\n%s      on_complete:\n%s        - target: %s\n", pad, pad, pad, pad, pad, pad, next)
		}
	}
	return b.String()
}

// chainFixtures is n fixtures of turns go turns each advancing the clock
// an hour (each landing the whole chain back home), then a look expecting
// wrong, where it is not.
func chainFixtures(t *testing.T, n, turns int, wrong string) []*Fixture {
	t.Helper()
	var fxs []*Fixture
	for i := range n {
		src := "test_kind: flow\ninitial_state: home\nhost_handlers:\n  host.run:\n    data: {exit_code: 0}\nturns:\n" +
			strings.Repeat("  - intent: {name: go}\n    advance_clock: 1h\n", turns) +
			"  - intent: {name: look}\n    expect_state: " + wrong + "\n"
		got, ds := parse(fmt.Sprintf("flows/f%d.yaml", i), []byte(src))
		if diag.HasErrors(ds) {
			t.Fatal(ds)
		}
		fxs = append(fxs, got...)
	}
	return fxs
}

// loadStory writes src as a story's app.yaml and loads it.
func loadStory(t *testing.T, src string) *story.Story {
	t.Helper()
	app := filepath.Join(t.TempDir(), "app.yaml")
	if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(app, story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	return st
}
