package story

import (
	"strings"
	"testing"
)

// A key holding a line break is quoted in the place a message names: a
// message keeps its first line only, so `states.a.on.i` (the place cut at
// the key's newline) was all a type error said, its what and fix lost.
func TestKeyWithNewlineKeepsTheMessage(t *testing.T) {
	src := "app: {id: x}\nroot: a\nstates:\n  \"a\\nb\":\n    intents: [ib]\n    on:\n      \"i\\nb\": {target: a}\nintents:\n  \"k\\nq\": {slots: 5}\n"
	_, ds := LoadSource("app.yaml", []byte(src), Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == "type" {
			got = append(got, d.Message)
		}
	}
	want := []string{
		`states."a\nb".intents: expected a mapping, got a list`,
		`states."a\nb".on."i\nb": expected a list, got a mapping`,
		`intents."k\nq".slots: expected a mapping`,
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, w)
		}
		if !found {
			t.Errorf("no type finding starting %q in %q", w, got)
		}
	}
}
