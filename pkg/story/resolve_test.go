package story

import (
	"strconv"
	"testing"
)

// ResolvePath is the one resolver the loader and the engine share; these
// are upstream's results (story-runtime.md §1.6, §2.4).
func TestResolvePathUpstreamForms(t *testing.T) {
	for _, tc := range []struct{ base, target, want string }{
		{"a.b", "", "a.b"},
		{"a.b", ".", "a.b"},
		{"a.b", "c", "c"},
		{"a.b", "x/y", "x.y"},
		{"a.b", "x.y", "x.y"},
		{"a.b", "../c", "a.c"},
		{"a.b", "../../c", "c"},
		{"a.b", "..", "a"},
		{"a.b", "../c/d", "a.c.d"},
		{"a.b", ".././c", "a.c"},
		{"a.b", "..c", "a.b...c"}, // one segment "..c", appended: no such state
		{"p#p.a.a1|p.b.b1", "../error", "p#p.a.a1|p.b.error"},
	} {
		got, err := ResolvePath(tc.base, tc.target)
		if err != nil || got != tc.want {
			t.Errorf("ResolvePath(%q, %q) = %q, %v; want %q", tc.base, tc.target, got, err, tc.want)
		}
	}
	if _, err := ResolvePath("a", "../../x"); err == nil {
		t.Error("climbing above the top level is an error")
	}
}

// TestPhaseGeneratedNames: a {name} in a template state's key is the
// entry's parameter, else the template's default; {id} is the graph key,
// whatever the entry or a default say, as pkg/phases expands it; an
// unknown one is left as written, a key without one is itself.
func TestPhaseGeneratedNames(t *testing.T) {
	st := &Story{
		PhaseTemplates: map[string]*PhaseTemplate{"t": {
			Parameters: map[string]*PhaseParam{"kind": {Default: "k"}, "n": {Default: 3}, "id": {Default: "did"}, "bare": {}},
			States:     []*State{{Name: "{id}_run"}, {Name: "{kind}-{n}-{x}"}, {Name: "fixed"}, {Name: "{bare}{id}"}},
		}},
		Phases: &Phases{Template: "t", Graph: map[string]*PhaseNode{
			"a": {},
			"b": {Params: map[string]any{"kind": "B", "n": 1.5, "id": "own"}},
			"c": {Params: map[string]any{"x": true}},
		}},
	}
	got := phaseGeneratedNames(st)
	want := map[string]bool{
		"a_run": true, "k-3-{x}": true, "fixed": true, "{bare}a": true,
		"b_run": true, "B-1.5-{x}": true, "{bare}b": true,
		"c_run": true, "k-3-true": true, "{bare}c": true,
	}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for n := range want {
		if !got[n] {
			t.Errorf("%q missing from %v", n, got)
		}
	}
}

// BenchmarkPhaseGeneratedNames: the names 30,000 graph entries of a
// three-state template with four parameters generate.
func BenchmarkPhaseGeneratedNames(b *testing.B) {
	tpl := &PhaseTemplate{
		Parameters: map[string]*PhaseParam{"title": {Default: "t"}, "budget": {Default: 2}, "owner": {Default: "me"}, "kind": {Default: "k"}},
		States:     []*State{{Name: "{id}_executing"}, {Name: "{id}_awaiting_reply"}, {Name: "{id}_failed"}},
	}
	graph := map[string]*PhaseNode{}
	for i := range 30_000 {
		graph["p"+strconv.Itoa(i)] = &PhaseNode{Params: map[string]any{"title": "T", "budget": i}}
	}
	st := &Story{PhaseTemplates: map[string]*PhaseTemplate{"t": tpl}, Phases: &Phases{Template: "t", Graph: graph}}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(phaseGeneratedNames(st)); n != 90_000 {
			b.Fatalf("%d names", n)
		}
	}
}

// TestPhaseGeneratedNamesNil: a nil template state or graph entry (a
// model built by hand) names nothing and does not panic.
func TestPhaseGeneratedNamesNil(t *testing.T) {
	st := &Story{
		PhaseTemplates: map[string]*PhaseTemplate{"t": {States: []*State{nil, {Name: "{id}_run"}}}},
		Phases:         &Phases{Template: "t", Graph: map[string]*PhaseNode{"a": nil}},
	}
	if got := phaseGeneratedNames(st); len(got) != 1 || !got["a_run"] {
		t.Errorf("got %v, want a_run", got)
	}
}
