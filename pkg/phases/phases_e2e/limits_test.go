package phasese2e

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

// aliasPhases is a story whose template, through YAML aliases depth
// levels deep (nine references each), holds about 9^depth values, expanded
// by entries graph entries. At depth 5 (a 100 KB file of 66,000 values), 3,000
// entries copied 200 million values: 4 GB for validate, 12 GB for test,
// none ending in 100 s.
func aliasPhases(entries, depth int) string {
	var b strings.Builder
	b.WriteString("app: { id: p, version: 0.1.0 }\nworld:\n  x: { type: list, default: [] }\nintents:\n  go: { description: g }\nroot: p0_executing\n")
	b.WriteString("phase_templates:\n  leg:\n    states:\n      \"{id}_executing\":\n        view: v\n        on_enter:\n          - set: { x: &m0 [a, b, c, d, e, f, g, h, i] }\n")
	for i := 1; i < depth; i++ {
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

// substPhases: a parameter of size bytes substituted 200 times in one
// view, by entries graph entries (at 1 MB and 200 entries, 40 GB of text).
func substPhases(size, entries int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: { id: p, version: 0.1.0 }\nintents:\n  go: { description: g }\nroot: p0_executing\nphase_templates:\n  leg:\n    parameters:\n      p: { default: %q }\n", strings.Repeat("x", size))
	fmt.Fprintf(&b, "    states:\n      \"{id}_executing\":\n        view: %q\n        on: { go: [ { target: \"{{ phase.next.go }}\" } ] }\nphases:\n  template: leg\n  graph:\n", strings.Repeat("{{ tpl.p }}", 200))
	for i := range entries {
		fmt.Fprintf(&b, "    p%d: { next: { go: p%d } }\n", i, (i+1)%entries)
	}
	b.WriteString("states: {}\n")
	return b.String()
}

// small are bounds a hundredth and a thousandth of the production ones:
// the refusals below cross them as a hostile story crosses those.
var small = phases.Options{MaxCopiedValues: 20_000, MaxSubstitutedBytes: 64 << 10}

// TestExpandStopsPastTheBounds: an expansion past its bound of copied
// values or substituted bytes is an error naming the bound at phases:, the
// story is left as it was; a story under them expands. The bounds here are
// small ones (phases.Options); TestExpandStopsPastTheProductionBounds holds
// the production ones, which validate reports too.
func TestExpandStopsPastTheBounds(t *testing.T) {
	// 30 entries of a template of 920 values (27,600), and 200 KB of
	// text substituted in one entry's view.
	for name, src := range map[string]string{"aliases": aliasPhases(30, 3), "substitution": substPhases(1<<10, 2)} {
		t.Run(name, func(t *testing.T) {
			st := writeAndLoad(t, t.TempDir(), src)
			states := len(st.States)
			err := small.Expand(st)
			pe, ok := errors.AsType[*phases.Error](err)
			if !ok || !pe.TooLarge || !strings.Contains(err.Error(), "expand to more than 20000 copied values or 65536 bytes") {
				t.Fatalf("err = %v", err)
			}
			if st.Phases == nil || len(st.States) != states {
				t.Errorf("the story was changed: %d states, phases %v", len(st.States), st.Phases)
			}
		})
	}
	// five entries copy 4,600 values: under the bound
	st := writeAndLoad(t, t.TempDir(), aliasPhases(5, 3))
	if err := small.Expand(st); err != nil || len(st.States) != 5 {
		t.Errorf("5 entries: %v, %d states", err, len(st.States))
	}
}

// TestExpandStopsPastTheProductionBounds: Expand (the zero Options, what
// run, test and validate expand with) holds MaxCopiedValues and
// MaxSubstitutedBytes: a 1 MB parameter substituted 200 times in one
// entry's view (200 MB) is refused at phases:, and validate reports it.
func TestExpandStopsPastTheProductionBounds(t *testing.T) {
	if v, b := (phases.Options{}).Bounds(); v != phases.MaxCopiedValues || b != phases.MaxSubstitutedBytes {
		t.Errorf("the zero Options bound %d values and %d bytes, want MaxCopiedValues and MaxSubstitutedBytes", v, b)
	}
	dir := t.TempDir()
	st := writeAndLoad(t, dir, substPhases(1<<20, 2))
	err := phases.Expand(st)
	pe, ok := errors.AsType[*phases.Error](err)
	if !ok || !pe.TooLarge || !strings.Contains(err.Error(), "expand to more than 2000000 copied values or 67108864 bytes") {
		t.Fatalf("err = %v", err)
	}
	_, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	var said bool
	for _, d := range ds {
		said = said || (d.Rule == story.RulePhases.ID && strings.Contains(d.Message, "graph entries expand to more than 2000000 copied values"))
	}
	if !said {
		t.Errorf("validate does not report it: %v", ds)
	}
}

// TestExpandStopsAtTheFirstRefusal: once an expansion is past its bound,
// no further graph entry is bound or copied. The first of entries entries
// is past the small bound alone (200 KB of text substituted into its view);
// the rest would each copy the template again. The work, counted as allocations, is the same for
// 20 entries as for 2,000.
func TestExpandStopsAtTheFirstRefusal(t *testing.T) {
	allocs := func(entries int) float64 {
		st, _ := story.LoadSource("app.yaml", []byte(substPhases(1<<10, entries)), story.Options{LookupEnv: storyload.NoEnv})
		return testing.AllocsPerRun(2, func() {
			if err := small.Expand(st); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the %d graph entries expand to more than 20000 copied values or 65536 bytes", entries)) {
				t.Fatalf("%d entries: err = %v", entries, err)
			}
		})
	}
	few, many := allocs(20), allocs(2_000)
	if many > few+1_000 {
		t.Errorf("2,000 entries past the bound took %.0f allocations, 20 took %.0f: the entries after the refusal were still copied", many, few)
	}
}
