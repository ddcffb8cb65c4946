package lint

import (
	"slices"
	"testing"
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
