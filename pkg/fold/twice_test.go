package fold

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestOneChildTwoAliases: the loader shares one Child between aliases; each
// alias must get its own copy, and hosts: declared does not union.
func TestOneChildTwoAliases(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"p/app.yaml": `app: { id: p }
hosts: [host.run, host.other]
root: s
intents:
  go: { description: go }
imports:
  a: { source: ../c, exits: { out: { to: s } } }
  b: { source: ../c, hosts: declared, exits: { out: { to: "b" } } }
states:
  s:
    on:
      go: [{ target: a }]
`,
		"c/app.yaml": `app: { id: c }
hosts: [host.other, host.child_only]
world:
  k: { type: int, default: 3 }
intents:
  hop: { description: hop }
exits:
  out: {}
root: r
states:
  r:
    view: "k={{ world.k }}"
    on:
      hop:
        - target: "@exit:out"
          when: "world.k > 1"
`,
	})
	st, _ := lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	f := mustFold(t, st)
	eq(t, "paths", f.Paths(), []string{"s", "a", "a.r", "b", "b.r"})
	eq(t, "world", worldNames(f.Story), []string{"a__k", "b__k"})
	eq(t, "a view", state(t, f, "a.r").View.Template, "k={{ world.a__k }}")
	eq(t, "b view", state(t, f, "b.r").View.Template, "k={{ world.b__k }}")
	eq(t, "a arcs", targets(state(t, f, "a.r")), []string{"a__hop -> s"})
	eq(t, "b arcs", targets(state(t, f, "b.r")), []string{"b__hop -> b"})
	eq(t, "b guard", state(t, f, "b.r").Arms("b__hop")[0].When, "world.b__k > 1")
	// a inherits (adds host.child_only); b is declared (adds nothing).
	eq(t, "hosts", f.Story.Hosts, []string{"host.run", "host.other", "host.child_only"})
	if st.Imports["a"].Child != st.Imports["b"].Child {
		t.Log("loader did not share the child (test still valid)")
	}
}

// TestRegionOnErrorLikeDeliver mirrors story-runtime §6.3 example B: a bare
// on_error in a parallel region leaf (depth 2) becomes ../../../error, which
// a second fold leaves alone.
func TestRegionOnErrorLikeDeliver(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"top/app.yaml": `app: { id: top }
hosts: [host.run]
root: s
intents:
  go: { description: go }
imports:
  ship: { source: ../ship }
states:
  s:
    on:
      go: [{ target: ship }]
`,
		"ship/app.yaml": `app: { id: ship }
hosts: [host.run]
root: configure
imports:
  maker: { source: ../maker, entry: orchestrating }
states:
  configure: {}
`,
		"maker/app.yaml": `app: { id: maker }
hosts: [host.run]
intents:
  proceed: { description: proceed }
root: orchestrating
states:
  orchestrating:
    on:
      proceed: [{ target: parallel_workers }]
  parallel_workers:
    type: parallel
    states:
      worker_a:
        initial: executing
        states:
          executing:
            on_enter:
              - invoke: host.run
                with: { cmd: "false" }
                on_error: error
      worker_b:
        initial: executing
        states:
          executing: {}
  error: {}
`,
	})
	st, _ := lint.Load(filepath.Join(dir, "top"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	f := mustFold(t, st)
	ex := state(t, f, "ship.maker.parallel_workers.worker_a.executing")
	eq(t, "on_error", ex.OnEnter[0].OnError(), "../../../error")
	eq(t, "resolved from the leaf", resolveFrom(ex.Path, ex.OnEnter[0].OnError()), "ship.maker.error")
	eq(t, "parallel kept", state(t, f, "ship.maker.parallel_workers").Type, "parallel")
	eq(t, "arc", targets(state(t, f, "ship.maker.orchestrating")), []string{"ship__maker__proceed -> ../parallel_workers"})
	got, _ := resolveIntent(f, "ship.maker.orchestrating", "proceed")
	eq(t, "alias chased", got, "ship__maker__proceed")
	got, _ = resolveIntent(f, "ship.maker.orchestrating", "maker__proceed")
	eq(t, "inner spelling", got, "ship__maker__proceed")
}

// TestPhasesHook: a child's phases are expanded by the caller's hook before
// the child is folded, and the generated states are folded like the rest.
func TestPhasesHook(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"p/app.yaml": `app: { id: p }
root: s
intents:
  go: { description: go }
imports:
  c: { source: ../c, entry: start }
states:
  s:
    on:
      go: [{ target: c }]
`,
		"c/app.yaml": `app: { id: c }
intents:
  next: { description: next }
root: start
phase_templates:
  step:
    parameters: { id: { type: string, required: true } }
    states:
      "{id}_run":
        on:
          next: [{ target: start }]
phases:
  template: step
  graph:
    one: { id: one }
states:
  start:
    on:
      next: [{ target: one_run }]
`,
	})
	st, _ := lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	if _, err := New(st, Options{}); err == nil {
		t.Fatal("a child with phases folded without a Phases hook")
	}
	calls := 0
	f, err := New(st, Options{Phases: func(cs *story.Story) error {
		calls++
		// A stand-in expansion: the one state the graph generates.
		cs.States = append(cs.States, &story.State{Name: "one_run", Path: "one_run",
			On: []story.OnIntent{{Intent: "next", Arms: []*story.Transition{{Target: "start"}}}}})
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "calls", calls, 1)
	eq(t, "paths", f.Paths(), []string{"s", "c", "c.start", "c.one_run"})
	eq(t, "generated arc", targets(state(t, f, "c.one_run")), []string{"c__next -> ../start"})
	eq(t, "generated dir", dirOf(f, "c.one_run"), filepath.Join(dir, "c"))
	if f.Story.Phases != nil {
		t.Error("the child's phases leaked into the importer")
	}
}

// TestOverrideWithChoiceAndBadShape: an override's choice view naming child
// intents folds; a malformed override is an error naming the override.
func TestOverrideWithChoiceAndBadShape(t *testing.T) {
	files := map[string]string{
		"c/app.yaml": `app: { id: c }
intents:
  hop: { description: hop, slots: { n: { type: int } } }
root: r
states:
  r:
    on:
      hop: [{ target: r }]
`,
	}
	files["p/app.yaml"] = `app: { id: p }
root: s
imports:
  c:
    source: ../c
    overrides:
      states:
        r:
          view:
            - choice:
                items:
                  - { label: "hop", intent: hop, slots: { n: 1 } }
          on:
            hop: [{ target: r }]
states:
  s: {}
`
	dir := storytest.TempTree(t, files)
	st, _ := lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
	f := mustFold(t, st)
	eq(t, "arc", targets(state(t, f, "c.r")), []string{"c__hop -> ../r"})
	eq(t, "choice kept", state(t, f, "c.r").View.Elements[0].Kind, "choice")

	files["p/app.yaml"] = `app: { id: p }
root: s
imports:
  c:
    source: ../c
    overrides:
      states:
        r: { on: "not a mapping" }
states:
  s: {}
`
	dir = storytest.TempTree(t, files)
	st, _ = lint.Load(filepath.Join(dir, "p"), story.Options{Trees: storyload.Trees()})
	_, err := New(st, Options{})
	if err == nil || !strings.Contains(err.Error(), "imports.c: ") || !strings.Contains(err.Error(), "overrides.states.r") {
		t.Fatalf("want an error naming imports.c and the override, got %v", err)
	}
	t.Log(err)
}
