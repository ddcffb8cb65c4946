package phases_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/lint"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"

	"kitsoki/internal/testing/storyload"
)

// aliasPhases is a story of about 100 KB whose template, through YAML
// aliases, holds 66,000 values, expanded by entries graph entries (3,000
// of them copied 200 million values: 4 GB for validate, 12 GB for test,
// none ending in 100 s).
func aliasPhases(entries int) string {
	var b strings.Builder
	b.WriteString("app: { id: p, version: 0.1.0 }\nworld:\n  x: { type: list, default: [] }\nintents:\n  go: { description: g }\nroot: p0_executing\n")
	b.WriteString("phase_templates:\n  leg:\n    states:\n      \"{id}_executing\":\n        view: v\n        on_enter:\n          - set: { x: &m0 [a, b, c, d, e, f, g, h, i] }\n")
	for i := 1; i < 5; i++ {
		p := fmt.Sprintf("*m%d", i-1)
		fmt.Fprintf(&b, "          - set: { x: &m%d [%s] }\n", i, strings.Repeat(p+", ", 8)+p)
	}
	b.WriteString("        on: { go: [ { target: \"{{ phase.next.go }}\" } ] }\nphases:\n  template: leg\n  graph:\n")
	for i := range entries {
		fmt.Fprintf(&b, "    p%d: { next: { go: p%d } }\n", i, (i+1)%entries)
	}
	b.WriteString("states: {}\n")
	return b.String()
}

// substPhases: a 1 MB parameter substituted 200 times in one view, by
// 200 graph entries (40 GB of text).
func substPhases() string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: { id: p, version: 0.1.0 }\nintents:\n  go: { description: g }\nroot: p0_executing\nphase_templates:\n  leg:\n    parameters:\n      p: { default: %q }\n", strings.Repeat("x", 1<<20))
	fmt.Fprintf(&b, "    states:\n      \"{id}_executing\":\n        view: %q\n        on: { go: [ { target: \"{{ phase.next.go }}\" } ] }\nphases:\n  template: leg\n  graph:\n", strings.Repeat("{{ tpl.p }}", 200))
	for i := range 200 {
		fmt.Fprintf(&b, "    p%d: { next: { go: p%d } }\n", i, (i+1)%200)
	}
	b.WriteString("states: {}\n")
	return b.String()
}

// TestExpandStopsPastTheBounds: an expansion past MaxCopiedValues or
// MaxSubstitutedBytes is an error naming the bound at phases:, the story
// is left as it was, and validate reports it; a story under them
// expands.
func TestExpandStopsPastTheBounds(t *testing.T) {
	for name, src := range map[string]string{"aliases": aliasPhases(3000), "substitution": substPhases()} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			st := writeAndLoad(t, dir, src)
			states := len(st.States)
			err := phases.Expand(st)
			pe, ok := errors.AsType[*phases.Error](err)
			if !ok || !pe.TooLarge || !strings.Contains(err.Error(), "expand to more than 2000000 copied values or 67108864 bytes") {
				t.Fatalf("err = %v", err)
			}
			if st.Phases == nil || len(st.States) != states {
				t.Errorf("the story was changed: %d states, phases %v", len(st.States), st.Phases)
			}
			_, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
			var said bool
			for _, d := range ds {
				said = said || (d.Rule == story.RulePhases.ID && strings.Contains(d.Message, "graph entries expand to more than"))
			}
			if !said {
				t.Errorf("validate does not report it: %v", ds)
			}
		})
	}
	// five entries copy 750,000 values: under the bound
	st := writeAndLoad(t, t.TempDir(), aliasPhases(5))
	if err := phases.Expand(st); err != nil || len(st.States) != 5 {
		t.Errorf("5 entries: %v, %d states", err, len(st.States))
	}
}
