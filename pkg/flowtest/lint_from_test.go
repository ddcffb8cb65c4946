package flowtest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestLintFromLinear: each turn's reason quotes the one before it, so a
// 999-turn fixture whose every turn is followed through a hop (at the
// state with a 1,000-byte name) grew its texts with the square of its
// turns, each turn's holding every earlier one. Each rest's reason is cut
// to maxFrom: the lint's texts grow with the turns, and its finding still
// names the last two turns and where the fixture started (figures in
// commit 3c687fd6).
func TestLintFromLinear(t *testing.T) {
	name := strings.Repeat("s", 1000)
	st := loadStory(t, fmt.Sprintf("app: {id: hop}\nroot: %s\nintents:\n  ping: {}\n  back: {}\nstates:\n  %s:\n    on:\n      ping: [{target: b}]\n  b:\n    on_enter:\n      - emit_intent: back\n    on:\n      back: [{target: %s}]\n", name, name, name))
	src := "test_kind: flow\ninitial_state: " + name + "\nuse_orchestrator: true\nturns:\n" +
		strings.Repeat("  - intent: {name: ping}\n", 998) + "  - intent: {name: ping}\n    expect_state: b\n"
	fxs, ds := parse("flows/hop.yaml", []byte(src))
	if diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	l := lintState(st, fxs)
	runtime.ReadMemStats(&m1)
	if mb := (m1.TotalAlloc - m0.TotalAlloc) >> 20; mb > 64 {
		t.Errorf("the lint of a 999-turn fixture allocated %d MB", mb)
	}
	if len(l.ds) != 1 || l.ds[0].Rule != ruleWrongState.ID {
		t.Fatalf("want one %s finding, got %v", ruleWrongState.ID, l.ds)
	}
	for _, want := range []string{"turns[998].expect_state", "(where turns[997] \"ping\"", "bytes left out"} {
		if !strings.Contains(l.ds[0].Message, want) {
			t.Errorf("the finding lacks %q: %s", want, diag.ClipMessage(l.ds[0].Message))
		}
	}
}
