package lint

import (
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A templated target counts for its statically known values; only one that
// reads run-time values is unknown.
func TestTemplateTargets(t *testing.T) {
	sv := &staticValues{vals: map[string][]string{"prev": {"menu", "start"}}, unknown: map[string]bool{"bound": true}}
	for _, tc := range []struct {
		tpl   string
		want  []string
		known bool
	}{
		{"{{ world.prev }}", []string{"menu", "start"}, true},
		{"{% if world.flag %}a{% else %}b{% endif %}", []string{"a", "b"}, true},
		{"{{ world.prev | default:'lobby' }}", []string{"lobby", "menu", "start"}, true},
		{"{{ world.prev | lower }}", nil, false},
		{"{{ world.bound }}", nil, false},
		{"{{ slots.dest }}", nil, false},
		{"{{ world.never_set }}", nil, false},
	} {
		got, known := sv.templateTargets(tc.tpl)
		slices.Sort(got)
		if known != tc.known || (known && !slices.Equal(got, tc.want)) {
			t.Errorf("%s: %v %v, want %v %v", tc.tpl, got, known, tc.want, tc.known)
		}
	}
}

// An on_error target is looked up as written, never rendered (conformance
// on-error-template-literal): "{{ 'x1' }}" reaches no state, so x1, which
// nothing else names, is unreachable.
func TestOnErrorTemplateReachesNothing(t *testing.T) {
	src := "app: {id: t}\nroot: a\nhosts: [host.x]\nstates:\n  a:\n    on_enter: [{invoke: host.x, on_error: \"{{ 'x1' }}\"}]\n  x1: {}\n"
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
		return d.Rule == ruleUnreachable.ID && strings.Contains(d.Message, `state "x1" is unreachable`)
	}) {
		t.Errorf("want x1 unreachable, got:\n%s", render(ds))
	}
}
