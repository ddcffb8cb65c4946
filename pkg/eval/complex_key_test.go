package eval

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

// A mapping or a list used as a key refuses a dataset at its place; an
// example's args held one as a finding naming yaml.v3's Go value
// ("invalid map key: []interface {}{"x"}").
func TestDatasetComplexKey(t *testing.T) {
	const head = "kind: agent_eval\napp: ../app.yaml\ncall: merge_judge\nagent: judge\ntask: {goal: g}\n"
	for src, want := range map[string]string{
		head + "examples:\n- name: a\n  args: {pr: {[x]: 1}}\n  expect: {intent: accept}\n":        "d.yaml:8:15: a mapping or a list is used as a key; a key in this dataset",
		head + "examples:\n- name: a\n  args: {a: [{<<: , {}: , [x]: }]}\n  expect: {intent: a}\n": "d.yaml:8:21: a mapping or a list",
	} {
		d, err := parseDataset("d.yaml", "d.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) || gotype.Named(err.Error(), nil) != "" {
			t.Errorf("%q: err = %v (dataset %v)\nwant it to contain %q", src, err, d != nil, want)
		}
	}
}
