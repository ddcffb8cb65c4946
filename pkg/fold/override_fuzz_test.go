package fold

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// FuzzOverrides: an import's overrides: block, any YAML (anchors, merge
// keys, wrong kinds), is parsed with the child's model and folds, or the
// fold is refused naming the importer's file, without a Go type or an
// internal error, never a panic; a folded override of the child's r keeps
// the child's state c.r.
func FuzzOverrides(f *testing.F) {
	for _, s := range []string{
		"      states:\n        <<: { r: &r { description: \"merged {{ world.k }}\", view: \"v: 1.50\\n\" } }\n      intents:\n        hop: { description: overridden, examples: [go, \"yes\"], slots: { n: { type: int } } }\n",
		"      states:\n        r: { on: \"not a mapping\" }\n",
		"      states:\n        r: { descripton: x }\n",
		"      states:\n        r:\n          view:\n            - choice: { items: [{ label: a, intent: hop }] }\n            - choice: { items: [{ label: b, intent: hop }] }\n",
		"      intents:\n        hop: { slots: [n] }\n",
		"      states:\n        r: { description: a, description: b }\n",
		"      states:\n        r: { on: { hop: [{ target: ../r, set: { k: \"{{ world.k }}\" } }] } }\n        gone: {}\n",
		"      states: &a [*a]\n",
		"      intents: { nope: { description: x } }\n      states: ~\n",
		"      states:\n        r: { states: { x: {} }, root: x }\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, overrides string) {
		parent := "app: { id: p }\nroot: s\nimports:\n  c:\n    source: ../c\n    overrides:\n" + overrides + "states:\n  s: {}\n"
		dir := storytest.TempTree(t, map[string]string{"c/app.yaml": overrideChild, "p/app.yaml": parent})
		st, _ := lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
		if st == nil {
			return
		}
		fd, err := New(st, Options{})
		if err != nil {
			msg := err.Error()
			if !strings.Contains(msg, "app.yaml") || strings.Contains(msg, "internal error") {
				t.Fatalf("%q: refusal %q names no file or is an internal error", overrides, msg)
			}
			if n := gotype.Named(msg, []byte(parent)); n != "" {
				t.Fatalf("%q: refusal %q names a Go type (%s)", overrides, msg, n)
			}
			return
		}
		if st.Imports["c"] != nil && stateAt(fd, "c.r") == nil {
			t.Fatalf("%q: folded without the child's state c.r", overrides)
		}
	})
}
