package graph

import (
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
)

// A drawing is printed on a terminal by default: a title, state or intent
// holding a bidirectional override or an invisible character (a state
// "done\u200b" beside "done") reaches neither format raw.
func TestDrawingHasNoTerminalControls(t *testing.T) {
	hostile := "T\u202etxt.exe \u200bdone\u200f \ufeff\u2066x\u2069 \u061c"
	a := &Node{ID: "s_a", Path: hostile, Label: hostile, Kind: KindState}
	b := &Node{ID: "s_b", Path: "b" + hostile, Label: "b" + hostile, Kind: KindState, Terminal: true}
	g := &Graph{Title: hostile, Top: []*Node{a, b}, Start: a,
		Edges: []*Edge{{Kind: EdgeArc, Intent: hostile, Guard: hostile, tail: a, head: b}}}
	d := draw(t, "termsafe", g, Options{})
	for name, out := range map[string]string{"dot": d.dot, "mermaid": d.mmd} {
		if i := strings.IndexFunc(out, termsafe.IsControl); i >= 0 {
			t.Errorf("%s holds %q raw at %d:\n%s", name, []rune(out[i:])[0], i, out)
		}
		if !strings.Contains(out, "txt.exe") {
			t.Errorf("%s lost the text around the controls:\n%s", name, out)
		}
	}
}
