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

// Judging a guard ahead of a run is bounded well below the run's own
// evaluation: a guard building more than the judge's budget, or reading
// values larger than judgeInput, is left unjudged (a run's 64 MiB bound
// let each judgement of string(1..999999) cost much of a second, and the
// turns of the story's fixtures judged each arm again: a few arms on a
// few turns kept validate busy for minutes). The same guard over a small range is still
// judged, and judged once however many turns reach it.
func TestLintJudgingAGuardIsBounded(t *testing.T) {
	app := func(guard, def string) map[string]string {
		return map[string]string{"app.yaml": `app: {id: judge}
root: lobby
world:
  name: {type: string, default: "ann"}
  big: {type: list, default: ` + def + `}
intents:
  go: {}
states:
  lobby:
    on:
      go:
        - when: '` + guard + `'
          target: done
        - target: lobby
  done: {terminal: true}
`}
	}
	turns := "test_kind: flow\ninitial_state: lobby\nturns:\n" + strings.Repeat("  - intent: {name: go}\n", 5)
	small := "[" + strings.Repeat("1, ", 10) + "1]"
	large := "[" + strings.Repeat("1, ", 20000) + "1]"
	for _, c := range []struct {
		name, guard, def string
		judged           bool
	}{
		{"a small range", `len(string(1..9)) > world.name`, small, true},
		{"a range of a million", `len(string(1..999999)) > world.name`, small, false},
		{"text past the judge's bytes", `len(string(1..99999) + string(1..99999)) > world.name`, small, false},
		{"a small list read", `max(world.big) > world.name`, small, true},
		{"a large list read", `max(world.big) > world.name`, large, false},
	} {
		got := ruleFindings(t, ruleGuardError, app(c.guard, c.def), turns)
		if c.judged && (len(got) != 1 || !strings.Contains(got[0].Message, "fails to evaluate")) {
			t.Errorf("%s: got %v, want one flow-guard-error (the first turn's; the guard judged once)", c.name, got)
		}
		if !c.judged && len(got) != 0 {
			t.Errorf("%s: got %v, want none: the judgement passes the judge's bounds", c.name, got)
		}
	}
}

// A story's judgements together spend at most judgeWork (a guard's length
// times the bytes it reads): fixtures sending a new slot value each, so no
// judgement is made twice, stop being judged once it is spent, where each
// arm's judgement on every one of them used to be made (a 16 KiB guard of
// max(world.l) over a 14 KB list on 40 turns of 5 arms: 15 s of CPU).
func TestLintJudgementsShareOneBudget(t *testing.T) {
	s := strings.Repeat("s", 15000)
	files := map[string]string{"app.yaml": `app: {id: judged}
root: lobby
world:
  s: {type: string, default: "` + s + `"}
intents:
  go:
    slots:
      k: {type: int}
states:
  lobby:
    on:
      go:
        - when: 'slots.k > world.s || world.s == "` + strings.Repeat("p", 15000) + `"'
          target: done
        - target: lobby
  done: {terminal: true}
`}
	var fx strings.Builder
	const n = 150
	for i := range n {
		fmt.Fprintf(&fx, "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go, slots: {k: %d}}\n---\n", i)
	}
	got := ruleFindings(t, ruleGuardError, files, fx.String())
	if len(got) == 0 || len(got) >= n {
		t.Fatalf("%d flow-guard-error findings for %d fixtures: want the first judged (about %d fit the budget), the rest not", len(got), n, judgeWork/(15000*15030))
	}
}

// The following visits every arm an intent reaches on every turn: a
// story of many arms whose guards are all certainly false, under a long
// fixture, made arms times turns times the walks of a turn of visits (1,000
// arms of world.x == N on 1,000 turns: 7.8 s of validate's CPU). The
// story's visits share one budget: past it every guard is left
// unjudged, so the visits that gather values stop at about
// budget/visitCost, while the first turns are still judged. The budget
// is lowered from judgeVisitBytes to 4 MiB, so a few turns spend it
// (TestLintGuardVisitBudgetIsTheProducts).
func TestLintGuardVisitsBounded(t *testing.T) {
	const budget, nTurns = 4 << 20, 20
	judged := guardArmsStory(t, budget)
	perTurn := judged(1)
	if perTurn < guardArms {
		t.Fatalf("one turn gathered values for %d guards, want every one of the %d arms judged (all certainly false)", perTurn, guardArms)
	}
	limit := budget/visitCost + perTurn
	if got := judged(nTurns); got > limit || perTurn*nTurns <= limit {
		t.Errorf("%d turns gathered values for %d guards (%d a turn): want at most about %d, the story's visit budget", nTurns, got, perTurn, limit)
	}
}

// TestLintGuardVisitBudgetIsTheProducts: lint's guard visits share
// judgeVisitBytes (64 MiB, 256 bytes a visit): 8 turns, which
// TestLintGuardVisitsBounded's 4 MiB cuts short, are all judged.
func TestLintGuardVisitBudgetIsTheProducts(t *testing.T) {
	if judgeVisitBytes != 64<<20 || visitCost != 256 {
		t.Fatalf("judgeVisitBytes %d, visitCost %d; want 64 MiB and 256", judgeVisitBytes, visitCost)
	}
	judged := guardArmsStory(t, 0)
	if one, got := judged(1), judged(8); got != 8*one {
		t.Errorf("8 turns gathered values for %d guards, want all %d (%d a turn)", got, 8*one, one)
	}
}

// guardArms is the arms of guardArmsStory's intent.
const guardArms = 1000

// guardArmsStory loads a story whose intent go has guardArms arms, each
// certainly false, and returns a func counting the guard visits that
// gathered values on a fixture of that many go turns: at the product's
// budget (lintState) when budget is 0, else lintStateAt's.
func guardArmsStory(t *testing.T, budget int64) func(turns int) int {
	t.Helper()
	var arms strings.Builder
	for i := range guardArms {
		fmt.Fprintf(&arms, "        - when: 'world.x == %d'\n          target: done\n", i)
	}
	app := filepath.Join(t.TempDir(), "app.yaml")
	src := "app: {id: arms}\nroot: lobby\nworld:\n  x: {type: int, default: -1}\nintents:\n  go: {}\nstates:\n  lobby:\n    on:\n      go:\n" + arms.String() + "        - target: lobby\n  done: {terminal: true}\n"
	if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(app, story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	return func(turns int) int {
		t.Helper()
		fxs, pds := parse("flows/r.yaml", []byte("test_kind: flow\ninitial_state: lobby\nturns:\n"+strings.Repeat("  - intent: {name: go}\n", turns)))
		if diag.HasErrors(pds) {
			t.Fatal(pds)
		}
		if budget == 0 {
			return lintState(st, fxs).guards.evals
		}
		return lintStateAt(st, fxs, budget).guards.evals
	}
}
