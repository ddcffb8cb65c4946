package phasese2e

import (
	"errors"
	"fmt"
	"kitsoki/pkg/phases"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/lint"
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
	st, _ := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
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
`, []string{`9:7: phases.graph["a"]: state name "{id}_{kind}": unknown parameter "kind" (declare it under parameters: with a default, or give it in the graph entry)`}},
		{"phase_id is no parameter", head + `phase_templates:
  t:
    parameters: {note: {type: string}}
    states:
      "{phase_id}_{note}": {}
phases:
  template: t
  graph: {a: {}}
`, []string{
			`10:7: phases.graph["a"]: state name "{phase_id}_{note}": unknown parameter "note" (declare it under parameters: with a default, or give it in the graph entry)`,
			`10:7: phases.graph["a"]: state name "{phase_id}_{note}": unknown parameter "phase_id" (declare it under parameters: with a default, or give it in the graph entry)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := loadLoose(t, c.yaml)
			n := len(st.States)
			err := phases.Expand(st)
			var pe *phases.Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *phases.Error", err)
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

// TestUnknownReferencesKept: a {{ tpl.x }} naming no parameter value (an
// undeclared name, or a declared optional one without default the entry
// does not give) and a {{ phase.next.x }} the entry's next: lacks stay as
// written, as upstream leaves them (a view renders them empty; an
// expression refuses them at compile); {name} in a body is text.
func TestUnknownReferencesKept(t *testing.T) {
	st := loadLoose(t, head+`phase_templates:
  t:
    parameters: {note: {type: string}}
    states:
      "{id}_s":
        view: "[{{ tpl.note }}|{note}|{{ tpl.nope }}|{{ phase.next.go }}|{{ phase.next.skip }}]"
phases:
  template: t
  graph: {a: {next: {go: b}}, b: {next: 3}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	eq(t, "view a", find(t, st, "a_s").View.Template, "[{{ tpl.note }}|{note}|{{ tpl.nope }}|b_executing|{{ phase.next.skip }}]")
	eq(t, "view b", find(t, st, "b_s").View.Template, "[{{ tpl.note }}|{note}|{{ tpl.nope }}|{{ phase.next.go }}|{{ phase.next.skip }}]")
}

// TestCollisionsDropped: a generated state whose name is already taken is
// dropped without a word, as upstream's expansion drops it (probe
// phase-collisions): the story's own state wins, then the phase whose id
// sorts first (not the one declared first), then within a phase the
// template key that sorts first. The dropped copy takes no entry on_enter
// or checkpoint intent with it, but the cycle budgets of a phase guard the
// <id>_executing state that stays, the story's own included.
func TestCollisionsDropped(t *testing.T) {
	st := loadLoose(t, `app: {id: e}
intents: {go: {}}
root: start
world: {s: {type: string, default: ""}}
states:
  start: {on: {go: [{target: start}]}}
  b_executing: {view: "hand exec", on: {go: [{target: start}]}}
  b_awaiting_reply: {view: "hand await"}
phase_templates:
  t:
    parameters: {k: {type: string, default: ""}}
    states:
      "{id}_executing": {view: "gen exec {{ tpl.id }}"}
      "{id}_awaiting_reply": {view: "gen await {{ tpl.id }}"}
      "{k}_x": {view: "k-key {{ tpl.id }}"}
      "{id}_x": {view: "id-key {{ tpl.id }}"}
      shared: {view: "shared {{ tpl.id }}"}
checkpoint_intents:
  ok: {description: ok}
phases:
  template: t
  graph:
    b: {k: b, on_enter: [{set: {s: "{{ tpl.id }}"}}], cycle_budgets: {go: 1}}
    a: {k: a}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	eq(t, "shared", find(t, st, "shared").View.Template, "shared a")
	eq(t, "a_x", find(t, st, "a_x").View.Template, "id-key a")
	exec := find(t, st, "b_executing")
	eq(t, "b_executing", exec.View.Template, "hand exec")
	if len(exec.OnEnter) != 0 {
		t.Error("the entry on_enter reached the story's own b_executing")
	}
	if arms := exec.Arms("go"); len(arms) != 2 || arms[0].When != "world.cycle__b__go < 1" {
		t.Errorf("b_executing go arms = %d, want the budgeted arm and the default", len(arms))
	}
	if w := find(t, st, "b_awaiting_reply"); w.View.Template != "hand await" || w.Intents["ok"] != nil {
		t.Errorf("b_awaiting_reply = %q with intents %v, want the story's own without checkpoints", w.View.Template, w.Intents)
	}
	if find(t, st, "a_awaiting_reply").Intents["ok"] == nil {
		t.Error("a_awaiting_reply has no checkpoint intent")
	}
	n := 0
	for _, s := range st.States {
		if s.Name == "shared" || s.Name == "b_executing" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d states named shared or b_executing, want one each", n)
	}
}

// TestLoadChecksKeys: the load (lint) refuses a state key naming a
// parameter the entry has no value for, as upstream refuses it at load
// (not only at expansion), and warns of every generated name already
// taken, which loads with one of them dropped.
func TestLoadChecksKeys(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(head+`phase_templates:
  t:
    parameters: {k: {type: string}, d: {type: string, default: x}}
    states:
      "{id}_{k}": {}
      "{id}_{d}": {}
      "start": {}
phases:
  template: t
  graph: {a: {}, b: {k: x}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	var got []string
	for _, d := range ds {
		if d.Rule == "phases" {
			got = append(got, fmt.Sprintf("%d:%d: %s: %s", d.Line, d.Col, d.Severity, d.Message))
		}
	}
	eq(t, "diagnostics", got, []string{
		`10:7: error: phases.graph["a"]: state name "{id}_{k}": unknown parameter "k" (declare it under parameters: with a default, or give it in the graph entry)`,
		`11:7: warning: phases.graph["b"]: template state "{id}_{d}" expands to "b_x", which phases.graph["b"]'s "{id}_{k}" already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase`,
		`12:7: warning: phases.graph["a"]: template state "start" expands to "start", which the story's own state already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase`,
		`12:7: warning: phases.graph["b"]: template state "start" expands to "start", which the story's own state already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase`,
	})
}

// TestBudgetValues: a cycle budget is read as upstream reads it (probe
// phase-budget-values): floats cut to their integer part, strings through
// Atoi, anything else no budget at all; a limit below 1 is refused, by the
// load and by the expansion; a `default: true` arm is neither guarded nor
// counted.
func TestBudgetValues(t *testing.T) {
	const tpl = `app: {id: e}
intents: {go: {}, hop: {}}
root: a_executing
phase_templates:
  t:
    states:
      "{id}_executing":
        on:
          go: [{when: "true", target: .}, {default: true, target: .}]
      "{id}_error": {}
phases:
  template: t
  graph:
`
	st := loadLoose(t, tpl+`    a: {cycle_budgets: {go: 2.9, hop: "abc"}}
    b: {cycle_budgets: {go: "+3", hop: true}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"a": "(true) && (world.cycle__a__go < 2)", "b": "(true) && (world.cycle__b__go < 3)"} {
		s := find(t, st, id+"_executing")
		arms := s.Arms("go")
		if len(arms) != 3 || arms[0].When != want || len(arms[0].Effects) != 1 || arms[1].When != "" || len(arms[1].Effects) != 0 {
			t.Errorf("%s go arms = %d, first when %q", id, len(arms), arms[0].When)
		}
		if s.HasOn("hop") {
			t.Errorf("%s: a budget that is no number added an arm", id)
		}
	}
	for _, v := range []string{"0", "-1", "0.5", `"0"`} {
		st := loadLoose(t, tpl+"    a: {cycle_budgets: {go: "+v+"}}\n")
		want := `phases.graph["a"]: cycle_budgets["go"] must be > 0`
		if err := phases.Expand(st); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("budget %s: expansion err = %v", v, err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(tpl+"    a: {cycle_budgets: {go: "+v+"}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
		found := false
		for _, d := range ds {
			found = found || d.Message == want
		}
		if !found {
			t.Errorf("budget %s: the load does not refuse it: %v", v, ds)
		}
	}
}
