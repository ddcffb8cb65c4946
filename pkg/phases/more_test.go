package phases

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// TestEntryOnEnterRunsFirst: a graph entry's on_enter: comes before the
// template's own on_enter: in the phase's first state, and is substituted.
func TestEntryOnEnterRunsFirst(t *testing.T) {
	st := loadLoose(t, head+`world: {a: {type: string, default: ""}, b: {type: string, default: ""}}
phase_templates:
  t:
    parameters: {title: {type: string, default: T}}
    states:
      "{id}_first":
        on_enter: [{set: {b: "template {{ tpl.title }}"}}]
      "{id}_second": {}
phases:
  template: t
  graph:
    p: {title: P, on_enter: [{set: {a: "entry {id} {{ tpl.title }} {{ phase.id }}"}}]}
`)
	if err := Expand(st); err != nil {
		t.Fatal(err)
	}
	oe := find(t, st, "p_first").OnEnter
	if len(oe) != 2 {
		t.Fatalf("on_enter = %d effects, want 2", len(oe))
	}
	eq(t, "first", []any{oe[0].Set[0].Key, oe[0].Set[0].Value}, []any{"a", "entry p P p"})
	eq(t, "second", []any{oe[1].Set[0].Key, oe[1].Set[0].Value}, []any{"b", "template P"})
	eq(t, "second state", len(find(t, st, "p_second").OnEnter), 0)
}

// TestTagForms: the exact forms substitute raw text (also inside guards
// and targets); other tags naming tpl./phase.next. get pongo2 literals;
// run-time templates are left alone; {param} works inside a tag.
func TestTagForms(t *testing.T) {
	st := loadLoose(t, head+`phase_templates:
  t:
    parameters: {title: {type: string, default: "It's"}, n: {type: int, default: 4}, on: {type: bool, default: true}}
    states:
      "{id}_s":
        view: "{{ tpl.title | upper }} {{tpl.n}} {{- tpl.on -}} {% if tpl.n > 3 %}big{% endif %} {{ world.{id}_x }} {{ world.tpl.n }} {x} {{ phase.next.go|default:'none' }} {{ phase.next.skip|default:'none' }} json {\"k\": 1}"
        on:
          go:
            - when: "world.count < {{ tpl.n }} && {on}"
              target: "{{ phase.next.go }}"
phases:
  template: t
  graph: {a: {next: {go: start}}}
`)
	if err := Expand(st); err != nil {
		t.Fatal(err)
	}
	s := find(t, st, "a_s")
	eq(t, "view", s.View.Template, `{{ "It's" | upper }} 4true{% if 4 > 3 %}big{% endif %} {{ world.a_x }} {{ world.tpl.n }} {x} {{ "start"|default:'none' }} {{ ""|default:'none' }} json {"k": 1}`)
	eq(t, "guard", s.Arms("go")[0].When, "world.count < 4 && true")
	eq(t, "target", s.Arms("go")[0].Target, "start")
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
		if err := Expand(again); err != nil || len(again.States) != n {
			t.Errorf("%s: a second Expand of an expanded story is not a no-op (%v)", dir, err)
		}
	}
	// errors come in the same order too
	bad := head + `phase_templates:
  t:
    states:
      "{id}_s": {view: "{{ tpl.a }} {{ tpl.b }} {{ phase.next.c }}", on: {go: [{target: "{{ tpl.d }}"}]}}
phases:
  template: t
  graph: {x: {}, y: {}, z: {}}
`
	first := Expand(loadLoose(t, bad)).Error()
	if strings.Count(first, "\n") != 12 { // 4 problems x 3 entries, after the count line
		t.Fatalf("want 12 problems:\n%s", first)
	}
	for i := 0; i < 5; i++ {
		if got := Expand(loadLoose(t, bad)).Error(); !sameShape(got, first) {
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

// TestEachUnwraps: the problems reach a caller through errors.As with an
// anonymous interface (how the fold can keep each position).
func TestEachUnwraps(t *testing.T) {
	err := Expand(loadLoose(t, head+`phases: {template: t, graph: {a: {}}}
`))
	wrapped := errors.Join(errors.New("context"), err)
	var x interface{ Each(func(story.Pos, string)) }
	if !errors.As(wrapped, &x) {
		t.Fatal("not unwrapped")
	}
	n := 0
	x.Each(func(p story.Pos, m string) {
		n++
		if p.Line != 6 || m != "phases: declared but no phase_templates: present" {
			t.Errorf("got %v %q", p, m)
		}
	})
	eq(t, "problems", n, 1)
}
