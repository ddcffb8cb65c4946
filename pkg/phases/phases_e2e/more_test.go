package phasese2e

import (
	"reflect"
	"strings"
	"testing"

	"kitsoki/pkg/phases"
)

// TestEntryOnEnter: a graph entry's on_enter: replaces the on_enter: of
// the phase's <id>_executing state (wherever it is declared), with its
// {{ tpl.x }} references substituted ({id} and {{ phase.id }} are not);
// an entry whose template has no such state loses it.
func TestEntryOnEnter(t *testing.T) {
	st := loadLoose(t, head+`world: {a: {type: string, default: ""}, b: {type: string, default: ""}}
phase_templates:
  t:
    parameters: {title: {type: string, default: T}}
    states:
      "{id}_first":
        on_enter: [{set: {b: "first {{ tpl.title }}"}}]
      "{id}_executing":
        on_enter: [{set: {b: "template {{ tpl.title }}"}}]
phases:
  template: t
  graph:
    p: {title: P, on_enter: [{set: {a: "entry {id} {{ tpl.title }} {{ phase.id }}"}}]}
    q: {}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	oe := find(t, st, "p_executing").OnEnter
	if len(oe) != 1 {
		t.Fatalf("on_enter = %d effects, want 1", len(oe))
	}
	eq(t, "entry", []any{oe[0].Set[0].Key, oe[0].Set[0].Value}, []any{"a", "entry {id} P {{ phase.id }}"})
	eq(t, "first state kept", find(t, st, "p_first").OnEnter[0].Set[0].Value, "first P")
	eq(t, "no entry on_enter", find(t, st, "q_executing").OnEnter[0].Set[0].Value, "template T")

	st = loadLoose(t, head+`world: {a: {type: string, default: ""}}
phase_templates:
  t: {states: {"{id}_s": {on_enter: [{set: {a: mine}}]}}}
phases:
  template: t
  graph: {p: {on_enter: [{set: {a: entry}}]}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	eq(t, "dropped", find(t, st, "p_s").OnEnter[0].Set[0].Value, "mine")
}

// TestTagForms: only the tag forms {{ tpl.x }} and {{ phase.next.x }}
// (any spacing, no trim markers, no filter) are replaced, by raw text,
// wherever they sit — inside another tag too; every other tag, {name} in a
// body and {{ phase.id }} are left as written.
func TestTagForms(t *testing.T) {
	st := loadLoose(t, head+`phase_templates:
  t:
    parameters: {title: {type: string, default: "It's"}, n: {type: int, default: 4}, on: {type: bool, default: true}, l: {default: [1, two]}, m: {default: {k: v}}, f: {default: 2.50}}
    states:
      "{id}_s":
        view: "{{ tpl.title | upper }} {{tpl.n}} {{- tpl.on -}} {% if tpl.n > 3 %}big{% endif %} {{ world.{id}_x }} {{ world.tpl.n }} {x} {{ phase.id }} {{  tpl.l  }} {{ tpl.m }} {{ tpl.f }} json {\"k\": 1}"
        on:
          go:
            - when: "world.count < {{ tpl.n }} && {{tpl.on}}"
              target: "{{ phase.next.go }}"
              effects: [{set: {n: "{{ int({{ tpl.n }} * 3) }}"}}]
phases:
  template: t
  graph: {a: {next: {go: start}}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	s := find(t, st, "a_s")
	eq(t, "view", s.View.Template, `{{ tpl.title | upper }} 4 {{- tpl.on -}} {% if tpl.n > 3 %}big{% endif %} {{ world.{id}_x }} {{ world.tpl.n }} {x} {{ phase.id }} [1 two] map[k:v] 2.5 json {"k": 1}`)
	eq(t, "guard", s.Arms("go")[0].When, "world.count < 4 && true")
	eq(t, "target", s.Arms("go")[0].Target, "start_executing")
	eq(t, "nested tag", s.Arms("go")[0].Effects[0].Set[0].Value, "{{ int(4 * 3) }}")
}

// TestDeterministic: expanding two loads of the same story gives equal
// trees, every time.
func TestDeterministic(t *testing.T) {
	for _, dir := range []string{"phases-full", "phases-params", "phases-template-values"} {
		want := expand(t, upstream+dir).States
		for i := 0; i < 5; i++ {
			got := expand(t, upstream+dir).States
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: expansion %d differs", dir, i)
			}
		}
		again := expand(t, upstream+dir)
		n := len(again.States)
		if err := phases.Expand(again); err != nil || len(again.States) != n {
			t.Errorf("%s: a second Expand of an expanded story is not a no-op (%v)", dir, err)
		}
	}
	// errors come in the same order too
	bad := head + `phase_templates:
  t:
    states:
      "{id}_{a}_{b}": {}
      "{c}_{id}": {}
phases:
  template: t
  graph: {x: {}, y: {}, z: {}}
`
	first := phases.Expand(loadLoose(t, bad)).Error()
	if strings.Count(first, "\n") != 9 { // 3 problems x 3 entries, after the count line
		t.Fatalf("want 9 problems:\n%s", first)
	}
	for i := 0; i < 5; i++ {
		if got := phases.Expand(loadLoose(t, bad)).Error(); !sameShape(got, first) {
			t.Fatalf("error text differs:\n%s\n---\n%s", got, first)
		}
	}
}

// sameShape compares two error texts from different temp dirs.
func sameShape(a, b string) bool {
	strip := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, "app.yaml:"); i >= 0 {
				l = l[i:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	return strip(a) == strip(b)
}
