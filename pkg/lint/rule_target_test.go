package lint

import (
	"testing"

	"kitsoki/pkg/story"
)

// The target rule rejects "..c" exactly as the engine cannot enter it.
func TestDotDotNameIsNotASibling(t *testing.T) {
	src := "app: {id: t}\nroot: a\nintents: {go: {}}\nstates:\n  a:\n    initial: b\n    states:\n      b:\n        on:\n          go: [{target: ..c}]\n      c: {terminal: true}\n"
	st, ds := LoadBytes("app.yaml", []byte(src), story.Options{})
	found := false
	for _, d := range ds {
		if d.Rule == ruleTarget.ID && d.Line == 10 {
			found = true
		}
	}
	if !found {
		t.Fatalf("..c accepted: %s", render(ds))
	}
	if tg, err := st.ResolveFrom("a.b", "../c"); err != nil || tg.Path != "a.c" {
		t.Fatalf("ResolveFrom ../c = %+v, %v", tg, err)
	}
}
