package flowtest

import (
	"strings"
	"testing"
)

// Judging a guard ahead of a run is bounded well below the run's own
// evaluation: a guard building more than the judge's budget, or reading
// values larger than judgeInput, is left unjudged (a run's 64 MiB bound
// let each judgement of string(1..999999) cost a quarter second, and the
// turns of the story's fixtures judged each arm again: 20 arms on 10 turns
// kept validate busy 160 s). The same guard over a small range is still
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
	turns := "test_kind: flow\ninitial_state: lobby\nturns:\n" + strings.Repeat("  - intent: {name: go}\n", 50)
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
