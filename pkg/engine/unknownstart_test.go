package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

const unknownStartSrc = `app: {id: us, version: 0.1.0}
intents: {back: {}, go: {}}
root: idle
states:
  idle: {on: {back: [{target: c}]}}
  c:
    type: compound
    initial: c1
    on: {back: [{target: idle}]}
    states:
      c1: {on: {go: [{target: c.c2}]}}
      c2: {}
  p:
    type: parallel
    on: {back: [{target: idle}]}
    states:
      ra: {type: compound, initial: a1, states: {a1: {on: {go: [{target: p.ra.a2}]}}, a2: {}}}
      rb: {type: compound, initial: b1, states: {b1: {}}}
`

// A flow start under a known state rests on the raw path, takes the
// ancestor's intents, and leaving it exits the raw path, each unknown
// prefix and the known ancestors (conformance start-under-known-exits).
func TestStartUnderKnownState(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	sink := &recSink{}
	s, err := Start(t.Context(), m, SessionOptions{StartState: "c.x.y", StartFlat: true, Options: Options{Sink: sink}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.State(); got != "c.x.y" {
		t.Fatalf("state %q, want the raw path", got)
	}
	if !s.RestsUnknown() || !slices.Equal(s.Available(), []string{"back"}) {
		t.Fatalf("RestsUnknown %v, Available %v: want true, [back]", s.RestsUnknown(), s.Available())
	}
	if _, ok := s.ViewPath("c.x.y"); ok {
		t.Error("the raw path has a view")
	}
	if tn := fire(t, s, "go"); tn.Rejection == nil || !strings.Contains(tn.Rejection.Message, `state "c.x.y"`) {
		t.Fatalf("go (c1's, not an ancestor's) not rejected naming the raw path: %+v", tn.Rejection)
	}
	fire(t, s, "back")
	var exited []string
	for _, e := range sink.kinds(KindStateExited) {
		exited = append(exited, e.StatePath)
	}
	if s.State() != "idle" || !slices.Equal(exited, []string{"c.x.y", "c.x", "c"}) {
		t.Fatalf("state %q, exits %v: want idle, [c.x.y c.x c]", s.State(), exited)
	}
	if s.RestsUnknown() {
		t.Error("still resting on an unknown state after leaving it")
	}
}

// The parallel form keeps its unknown leaf while a known one moves; its
// view is the root's and the known leaves'.
func TestStartUnderKnownParallel(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "p#p.ra.a1|p.rb.b9", StartFlat: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if vp, ok := s.ViewPath(s.State()); !ok || vp != "p#p.ra.a1" {
		t.Errorf("view path %q %v, want p#p.ra.a1", vp, ok)
	}
	fire(t, s, "go")
	if got := s.State(); got != "p#p.ra.a2|p.rb.b9" {
		t.Fatalf("state %q, want p#p.ra.a2|p.rb.b9", got)
	}
}

// An entry in no region of the root (p.zz, idle.x) stays in the path until
// the machine first moves, then leaves it (conformance
// par-start-unknown-region).
func TestStartParallelStrayDropped(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "p#p.zz|p.ra.a1|idle.x", StartFlat: true, MachineOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.State(); got != "p#idle.x|p.ra.a1|p.zz" {
		t.Errorf("start state %q, want the sorted path with both strays", got)
	}
	fire(t, s, "go")
	if got := s.State(); got != "p#p.ra.a2" {
		t.Fatalf("state %q, want p#p.ra.a2", got)
	}
}

// Outside the flow rig (no StartFlat), and with no known prefix, the
// start is refused with the path named (a parallel form too).
func TestStartUnknownRefused(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	for _, so := range []SessionOptions{{StartState: "c.c9"}, {StartState: "x.y", StartFlat: true}, {StartState: "p#p.zz|p.rb.b1"}} {
		s, err := Start(t.Context(), m, so)
		if s != nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(strings.Split(so.StartState, "|")[0], "p#")) {
			t.Errorf("%+v: err %v, want a refusal naming the state", so.StartState, err)
		}
	}
}

// A refusal names the parallel path with its entries sorted, however the
// start wrote them (conformance par-start-entry-forms); the state path
// itself stays as written.
func TestRefusalNamesSortedPath(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	for start, want := range map[string]string{
		"p#p.rb.b1|p.ra.a1":   "p#p.ra.a1|p.rb.b1",
		"p#p.ra.a1 | p.rb.b1": "p# p.rb.b1|p.ra.a1 ",
		"p#x#y|p.rb.b1":       "p#p.rb.b1|x#y",
	} {
		s, err := Start(t.Context(), m, SessionOptions{StartState: start, StartFlat: true})
		if err != nil {
			t.Fatal(err)
		}
		tn := fire(t, s, "nosuch")
		if tn.Rejection == nil || !strings.HasSuffix(tn.Rejection.Message, strconv.Quote(want)) || s.State() != start {
			t.Errorf("%s: rejection %+v, state %q: want the message to name %q, the state as written", start, tn.Rejection, s.State(), want)
		}
		s.Close()
	}
}

// Each entry of a flow's parallel start is read as written: one with a
// space or a "/" is in no region, and the root's own intents are allowed
// only through an entry under it or naming it (conformance
// par-start-entry-forms).
func TestStartParallelEntryForms(t *testing.T) {
	m := compileSource(t, "app.yaml", unknownStartSrc, CompileOptions{})
	for start, want := range map[string]string{
		"p#":         CodeNotAllowed,
		"p#zz":       CodeNotAllowed,
		"p#p/ra/a1":  CodeNotAllowed,
		"p# p.ra.a1": CodeNotAllowed,
		"p#p":        CodeGuardFailed,
		"p#p.zz.b1":  CodeGuardFailed,
		"p#p.ra.a1 ": "", // under p.ra: the root's arm is taken
	} {
		s, err := Start(t.Context(), m, SessionOptions{StartState: start, StartFlat: true})
		if err != nil {
			t.Fatalf("%s: %v", start, err)
		}
		tn := fire(t, s, "back")
		var got string
		if tn.Rejection != nil {
			got = tn.Rejection.Code
		}
		if got != want {
			t.Errorf("%q: back %q, want %q", start, got, want)
		}
		s.Close()
	}
}
