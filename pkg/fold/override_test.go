package fold

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// overrideChild is a child with a state r and an intent hop.
const overrideChild = `app: { id: c }
world:
  k: { type: string, default: "kv" }
intents:
  hop: { description: hop, slots: { n: { type: int } } }
root: r
states:
  r:
    description: child's own
    on:
      hop: [{ target: r }]
`

// foldOverride folds a parent importing overrideChild with the given
// overrides: block (indented under imports.c).
func foldOverride(t *testing.T, overrides string) (*Folded, error) {
	t.Helper()
	dir := storytest.TempTree(t, map[string]string{
		"c/app.yaml": overrideChild,
		"p/app.yaml": "app: { id: p }\nroot: s\nimports:\n  c:\n    source: ../c\n    overrides:\n" + overrides + "states:\n  s: {}\n",
	})
	st, _ := lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("parent did not load")
	}
	return New(st, Options{})
}

// TestOverrideParsedFromNodes: an override is parsed from the importer's
// own YAML (anchors and merge keys included) with the child's model of a
// state or intent; a structural problem is an error naming the override,
// and only those are.
func TestOverrideParsedFromNodes(t *testing.T) {
	f, err := foldOverride(t, `      states:
        <<: { r: &r { description: "merged {{ world.k }}", view: "v: 1.50\n" } }
      intents:
        hop: { description: overridden, examples: [go, "yes"], slots: { n: { type: int } } }
`)
	if err != nil {
		t.Fatal(err)
	}
	r := state(t, f, "c.r")
	eq(t, "merged description", r.Description, "merged {{ world.c__k }}")
	eq(t, "view as written", r.View.Template, "v: 1.50\n")
	if got := r.Pos.File; !strings.HasSuffix(got, filepath.Join("p", "app.yaml")) {
		t.Errorf("override state position names %q, want the importer's file", got)
	}

	for _, tc := range []struct{ name, overrides, want string }{
		{"type", "      states:\n        r: { on: \"not a mapping\" }\n", "overrides.states.r): states.r.on: expected a mapping, got a string"},
		{"unknown key", "      states:\n        r: { descripton: x }\n", `overrides.states.r): state "r": unknown key "descripton"; did you mean ` + "`description`?"},
		{"two choices", "      states:\n        r:\n          view:\n            - choice: { items: [{ label: a, intent: hop }] }\n            - choice: { items: [{ label: b, intent: hop }] }\n",
			`overrides.states.r): state "r": view[1] (choice): only one choice element per view is allowed`},
		{"intent", "      intents:\n        hop: { slots: [n] }\n", "overrides.intents.hop): intents.hop.slots: expected a mapping, got a list"},
		{"duplicate key", "      states:\n        r: { description: a, description: b }\n", `mapping key "description" already defined at line 8, column 14`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := foldOverride(t, tc.overrides)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error holding %q, got %v", tc.want, err)
			}
			if !strings.Contains(err.Error(), "app.yaml:6:5: imports.c: ") {
				t.Errorf("the error is not placed at the overrides: key: %v", err)
			}
		})
	}

	// A choice naming an intent the override does not declare itself is
	// a reference, checked in the child's scope: not an override error.
	if _, err := foldOverride(t, "      states:\n        r:\n          view:\n            - choice: { items: [{ label: a, intent: hop, slots: { n: 1 } }] }\n"); err != nil {
		t.Fatalf("a reference to a child intent made the override unusable: %v", err)
	}
}
