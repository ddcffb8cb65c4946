package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// flowDoc is a flow document of n turns.
func flowDoc(n int) string {
	var b strings.Builder
	b.WriteString("test_kind: flow\ninitial_state: start\nturns:\n")
	for range n {
		b.WriteString("  - intent: { name: go }\n")
	}
	return b.String()
}

// A fixture past maxFixtureTurns turns, or a file past maxFileTurns in
// all its documents, is an error at the turns: key (the fixture cannot
// run) and its turns are not kept; at the caps they are.
func TestFixtureTurnCaps(t *testing.T) {
	perFile := maxFileTurns / maxFixtureTurns
	for _, tc := range []struct {
		name  string
		src   string
		want  string // "" = no error
		turns int    // turns kept in all
	}{
		{"fixture at the cap", flowDoc(maxFixtureTurns), "", maxFixtureTurns},
		{"fixture past the cap", flowDoc(maxFixtureTurns + 1), fmt.Sprintf("turns: %d turns, more than the %d-turn limit of one fixture", maxFixtureTurns+1, maxFixtureTurns), 0},
		{"file at the cap", strings.Repeat(flowDoc(maxFixtureTurns)+"---\n", perFile), "", maxFileTurns},
		{"file past the cap", strings.Repeat(flowDoc(maxFixtureTurns)+"---\n", perFile) + flowDoc(1), fmt.Sprintf("more than the %d-turn limit of one fixture file", maxFileTurns), maxFileTurns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fxs, ds := parse("f.yaml", []byte(tc.src))
			kept := 0
			for _, fx := range fxs {
				kept += len(fx.Turns)
			}
			if kept != tc.turns {
				t.Errorf("kept %d turns, want %d", kept, tc.turns)
			}
			var errs []string
			for _, d := range ds {
				if d.Severity == diag.Error {
					errs = append(errs, d.String())
				}
			}
			if tc.want == "" {
				if len(errs) > 0 {
					t.Errorf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) || !strings.Contains(errs[0], "split") {
				t.Errorf("errors %v, want one holding %q and the fix", errs, tc.want)
			}
		})
	}
}
