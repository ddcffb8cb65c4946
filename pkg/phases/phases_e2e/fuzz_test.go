package phasese2e

import (
	"errors"
	"kitsoki/pkg/phases"
	"os"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// FuzzExpand: any phases:/phase_templates: the loader gives a model for
// expands or fails with positioned problems, never panics, and a failed
// expansion leaves the story as it was.
func FuzzExpand(f *testing.F) {
	for _, dir := range []string{"phases-full", "phases-params", "phases-template-values"} {
		if data, err := os.ReadFile(upstream + dir + "/app.yaml"); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(head + "phase_templates: {t: {states: {\"{id}\": {}}}}\nphases: {template: t, graph: {start: {}}}\n")
	f.Add(head + "phase_templates: {t: {parameters: {a: {required: true}}, states: {\"{x}\": {view: \"{{ tpl.b }}\"}}}}\nphases: {template: t, graph: {p: {next: 3}, q: ~}}\n")
	f.Fuzz(func(t *testing.T, yaml string) {
		st, _ := lint.LoadSource("app.yaml", []byte(yaml), story.Options{LookupEnv: storyload.NoEnv})
		if st == nil {
			return
		}
		n, had := len(st.States), st.Phases != nil
		err := phases.Expand(st)
		if err == nil {
			if st.Phases != nil {
				t.Fatal("phases: left after a successful expansion")
			}
			return
		}
		var pe *phases.Error
		if !errors.As(err, &pe) || len(pe.Problems) == 0 {
			t.Fatalf("error without problems: %v", err)
		}
		if len(st.States) != n || (st.Phases != nil) != had {
			t.Fatal("a failed expansion changed the story")
		}
	})
}
