package phases

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/story"
)

// loadLoose loads a story written to a temp dir, keeping the model even
// when the loader reports errors (Expand is checked on its own).
func loadLoose(t *testing.T, yaml string) *story.Story {
	t.Helper()
	return writeAndLoad(t, t.TempDir(), yaml)
}

func writeAndLoad(t testing.TB, dir, yaml string) *story.Story {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := story.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	if st == nil {
		t.Fatal("no model")
	}
	return st
}

const head = `app: {id: e}
intents: {go: {}}
root: start
states:
  start: {on: {go: [{target: start}]}}
`

func TestErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string // "line:col: message" of each problem
	}{
		{"no templates", head + `phases:
  template: t
  graph: {a: {}}
`, []string{`6:1: phases: declared but no phase_templates: present`}},
		{"template required", head + `phase_templates:
  t: {states: {"{id}_s": {}}}
phases:
  graph: {a: {}}
`, []string{`8:1: phases.template: required`}},
		{"template not found", head + `phase_templates:
  t: {states: {"{id}_s": {}}}
phases:
  template: nope
  graph: {a: {}}
`, []string{`8:1: phases.template "nope": not found in phase_templates (declared: t)`}},
		{"missing required", head + `phase_templates:
  t:
    parameters: {title: {type: string, required: true}, n: {required: true, default: 1}}
    states: {"{id}_s": {}}
phases:
  template: t
  graph:
    a: {n: 2}
    b: {title: B}
`, []string{`13:5: phases.graph["a"]: missing required template parameter "title"`}},
		{"unknown key placeholder", head + `phase_templates:
  t:
    states:
      "{id}_{kind}": {}
phases:
  template: t
  graph: {a: {}}
`, []string{`9:7: phases.graph["a"]: state key "{id}_{kind}": {kind} is not a parameter of the template (declare it under parameters: or give it in the graph entry)`}},
		{"unknown tpl", head + `phase_templates:
  t:
    states:
      "{id}_s":
        view: "{{ tpl.title }}"
phases:
  template: t
  graph: {a: {}}
`, []string{`10:15: phases.graph["a"]: {{ tpl.title }}: "title" is not a parameter of the template (declare it under parameters: or give it in the graph entry)`}},
		{"missing next arc", head + `phase_templates:
  t:
    states:
      "{id}_s":
        on:
          go: [{target: "{{ phase.next.go }}"}]
phases:
  template: t
  graph:
    a: {next: {stop: start}}
    b: {}
`, []string{
			`11:16: phases.graph["a"]: {{ phase.next.go }}: next: has no "go" arc (it has stop)`,
			`11:16: phases.graph["b"]: {{ phase.next.go }}: the entry has no next: (add next: {go: <state>})`}},
		{"collides with a state", head + `phase_templates:
  t:
    states:
      "{id}": {}
phases:
  template: t
  graph: {start: {}}
`, []string{`9:7: phases.graph["start"]: template state "{id}" expands to "start", which the story already declares (a state key needs {id} or a parameter that differs per phase)`}},
		{"collides between phases", head + `phase_templates:
  t:
    states:
      "shared": {}
phases:
  template: t
  graph: {a: {}, b: {}}
`, []string{`9:7: phases.graph["b"]: template state "shared" expands to "shared", which phases.graph["a"] already declares (a state key needs {id} or a parameter that differs per phase)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := loadLoose(t, c.yaml)
			n := len(st.States)
			err := Expand(st)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			var got []string
			for _, p := range pe.Problems {
				if !strings.HasSuffix(p.Pos.File, "app.yaml") {
					t.Errorf("problem %q not positioned in app.yaml (%q)", p.Message, p.Pos.File)
				}
				got = append(got, strings.TrimPrefix(p.String(), p.Pos.File+":"))
			}
			eq(t, "problems", got, c.want)
			if len(st.States) != n || st.Phases == nil {
				t.Error("a failed expansion changed the story")
			}
			if !strings.Contains(err.Error(), c.want[0]) {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

// TestOptionalUnsetRendersEmpty: a declared optional parameter with no
// default, not given, substitutes as empty text.
func TestOptionalUnsetRendersEmpty(t *testing.T) {
	st := loadLoose(t, head+`phase_templates:
  t:
    parameters: {note: {type: string}}
    states:
      "{id}_s":
        view: "[{{ tpl.note }}|{note}]"
phases:
  template: t
  graph: {a: {}}
`)
	if err := Expand(st); err != nil {
		t.Fatal(err)
	}
	eq(t, "view", find(t, st, "a_s").View.Template, "[|]")
}
