package flowtest

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// parRestApp is parallel_smoke's shape: clock's regions calendar
// (day1 -tick-> day2) and weather (dry -rain-> wet); clock takes leave.
const parRestApp = `app: {id: par}
root: outside
intents: {enter: {}, tick: {}, rain: {}, leave: {}}
states:
  outside:
    on:
      enter: [{target: clock}]
  clock:
    type: parallel
    on:
      leave: [{target: outside}]
    states:
      calendar:
        type: compound
        initial: day1
        states:
          day1:
            on:
              tick: [{target: ../day2}]
          day2: {}
      weather:
        type: compound
        initial: dry
        states:
          dry:
            on:
              rain: [{target: ../wet}]
          wet: {}
`

// TestLintParallelNotTaken: at the parallel path the previous turn's
// expect_state names, an intent no leaf, region or ancestor takes is
// rejected (gen storymut 992134 on the existing engine); one a leaf of
// another region or the parallel root takes is not judged, nor a first
// turn (the previous fixture's path is not carried over).
func TestLintParallelNotTaken(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\ninitial_state: outside\n"
	files := map[string]string{"app.yaml": parRestApp}
	const at = "turns:\n  - intent: {name: enter}\n    expect_state: clock#clock.calendar.day2|clock.weather.dry\n"
	cases := []struct{ name, fx, want string }{
		{"no leaf takes it", at + "  - intent: {name: tick}\n", `turns[1]: intent "tick" is not taken in the parallel state "clock#clock.calendar.day2|clock.weather.dry", where turns[0].expect_state rests`},
		{"outside's", at + "  - intent: {name: enter}\n", `turns[1]: intent "enter" is not taken in the parallel state`},
		{"another region's leaf", at + "  - intent: {name: rain}\n", ""},
		{"the root's", at + "  - intent: {name: leave}\n", ""},
		{"expected", at + "  - intent: {name: tick}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, files, head+c.fx), c.want)
		})
	}
	// two fixtures in one lint: the second's first turn is not judged at
	// the first's last parallel path
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(parRestApp), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	a, _ := parse("flows/a.yaml", []byte(head+at))
	b, _ := parse("flows/b.yaml", []byte("test_kind: flow\nuse_orchestrator: true\ninitial_state: clock.calendar.day1\nturns:\n  - intent: {name: tick}\n"))
	for _, d := range lint(st, append(a, b...)) {
		if d.Rule == ruleRejected.ID {
			t.Errorf("want no finding, got %v", d)
		}
	}
}
