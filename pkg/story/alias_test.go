package story

import (
	"fmt"
	"strings"
	"testing"
)

// TestRecursiveAliasesTerminate: YAML aliases that refer to their own
// ancestor are reported, not followed forever.
func TestRecursiveAliasesTerminate(t *testing.T) {
	for _, s := range recursiveAliasSeeds {
		_, ds := LoadSource("f.yaml", []byte(s), Options{})
		if len(ds) == 0 {
			t.Errorf("%q: no diagnostics", s)
		}
	}
	_, ds := LoadSource("f.yaml", []byte(recursiveAliasSeeds[3]), Options{})
	if !strings.Contains(render(ds), "recursive") {
		t.Errorf("recursion not reported:\n%s", render(ds))
	}
}

// TestAliasFanOutIsBounded: a "billion laughs" document finishes.
func TestAliasFanOutIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("app: {id: x}\nroot: s\nstates:\n  s:\n    on_enter:\n      - set:\n          l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "          l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	st, _ := LoadSource("laughs.yaml", []byte(b.String()), Options{})
	if st == nil {
		t.Fatal("no model")
	}
}

var recursiveAliasSeeds = []string{
	"a: &a [*a, *a]\n",
	"states: &a {x: *a}\n",
	"app: &a {id: *a}\n",
	"states:\n  s: &a\n    states: {t: *a}\n",
	"world: &a {x: *a}\n",
	"intents: &a {x: {slots: *a}}\n",
	"states:\n  s:\n    on_enter: &e [{on_complete: *e}]\n",
}
