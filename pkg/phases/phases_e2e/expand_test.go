package phasese2e

import (
	"kitsoki/pkg/phases"
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/story"
)

const upstream = "../../story/testdata/upstream/"

func expand(t *testing.T, dir string) *story.Story {
	t.Helper()
	st := storyload.LoadNoEnv(t, dir)
	if err := phases.Expand(st); err != nil {
		t.Fatalf("expand %s: %v", dir, err)
	}
	if st.Phases != nil {
		t.Fatal("phases: left after expansion")
	}
	return st
}

// find looks a dotted path up in the expanded tree.
func find(t *testing.T, st *story.Story, path string) *story.State {
	t.Helper()
	list := st.States
	var s *story.State
	for _, seg := range strings.Split(path, ".") {
		s = nil
		for _, c := range list {
			if c.Name == seg {
				s = c
			}
		}
		if s == nil {
			t.Fatalf("state %q not generated", path)
		}
		list = s.Children
	}
	if s.Path != path {
		t.Errorf("%s: Path = %q", path, s.Path)
	}
	return s
}

func names(list []*story.State) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func target(t *testing.T, s *story.State, intent string, arm int) string {
	t.Helper()
	arms := s.Arms(intent)
	if arm >= len(arms) {
		t.Fatalf("%s: on.%s has %d arms", s.Path, intent, len(arms))
	}
	return arms[arm].Target
}

func intents(s *story.State) []string {
	var out []string
	for n := range s.Intents {
		out = append(out, n)
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func TestPhasesFull(t *testing.T) {
	st := expand(t, upstream+"phases-full")
	eq(t, "states", names(st.States), []string{"lobby", "waiting", "templ_timeout", "finished", "completed", "design_error",
		"design_executing", "design_awaiting_reply", "build_executing", "build_awaiting_reply"})

	dd := find(t, st, "design_executing")
	eq(t, "description", dd.Description, "Drafting Design")
	eq(t, "decider kept", dd.Decider(), "llm")
	eq(t, "extends", dd.View.Extends, "base")
	eq(t, "block prose", dd.View.Blocks["body"][0].Text, "Drafting Design (3)")
	eq(t, "block kv", dd.View.Blocks["side"][0].Body, map[string]any{"pairs": map[string]any{"Budget": "3"}})
	eq(t, "draft -> checkpoint", target(t, dd, "approve", 0), "design_awaiting_reply")
	if len(dd.OnEnter) != 1 || dd.OnEnter[0].Set[0].Key != "x" || dd.OnEnter[0].Set[0].Value != "design" {
		t.Errorf("graph on_enter not on the phase's _executing state: %+v", dd.OnEnter)
	}
	// cycle_budgets: {revise: 2}: the _executing state gets the guarded
	// default arm to design_error
	rv := dd.Arms("revise")
	if len(rv) != 1 || rv[0].Target != "design_error" || !rv[0].Default() || rv[0].GuardHint() != "cycle budget exceeded for revise" {
		t.Errorf("revise budget arm = %+v", rv)
	}

	da := find(t, st, "design_awaiting_reply")
	eq(t, "template_file", da.View.TemplateFile, "checkpoint.pongo")
	eq(t, "next.approve", target(t, da, "approve", 0), "build_executing")
	eq(t, "revise", target(t, da, "revise", 0), "design_executing")
	eq(t, "checkpoint intents", intents(da), []string{"pause"})
	eq(t, "checkpoint description", da.Intents["pause"].Description, "pause here")
	if len(da.OnEnter) != 0 {
		t.Error("graph on_enter leaked into a later state")
	}

	bd := find(t, st, "build_executing")
	eq(t, "param overrides default", bd.View.Blocks["body"][0].Text, "Drafting Build (5)")
	if len(bd.OnEnter) != 0 {
		t.Error("design's on_enter leaked into build")
	}
	ba := find(t, st, "build_awaiting_reply")
	eq(t, "last phase next", target(t, ba, "approve", 0), "completed")
	eq(t, "checkpoint intents (build)", intents(ba), []string{"pause"})
	eq(t, "drafting has no checkpoint", intents(bd), []string(nil))

	// the template itself is untouched (it is the loaded story's)
	tpl := st.PhaseTemplates["review"].States[0]
	eq(t, "template name kept", tpl.Name, "{id}_executing")
	eq(t, "template text kept", tpl.Description, "Drafting {{ tpl.title }}")
}

func TestPhasesParams(t *testing.T) {
	st := expand(t, upstream+"phases-params")
	eq(t, "states", names(st.States), []string{"lobby", "finish", "ended_finish", "alpha_executing", "alpha_awaiting_reply", "beta_executing", "beta_awaiting_reply"})
	aw := find(t, st, "alpha_executing")
	eq(t, "compound", aw.Type, "compound")
	eq(t, "initial", aw.Initial(), "inner")
	eq(t, "nested keys kept", names(aw.Children), []string{"inner", "inner2"})
	in := find(t, st, "alpha_executing.inner")
	if in.Parent != aw {
		t.Error("child's Parent is not the generated compound")
	}
	eq(t, "relative target", target(t, in, "approve", 0), "../inner2")
	eq(t, "nested -> checkpoint", target(t, find(t, st, "alpha_executing.inner2"), "approve", 0), "alpha_awaiting_reply")

	aa := find(t, st, "alpha_awaiting_reply")
	eq(t, "view defaults", aa.View.Template, "Gate 2")
	eq(t, "default_intent", aa.DefaultIntent(), "feedback")
	eq(t, "tpl in a guard", aa.Arms("approve")[0].When, "world.count < 2")
	eq(t, "tpl target", target(t, aa, "approve", 0), "beta_executing")
	eq(t, "phase.next target", target(t, aa, "approve", 1), "beta_executing")
	eq(t, "arm effects copied", aa.Arms("approve")[0].Effects[0].Increment()[0].Value, 1)
	eq(t, "checkpoint intents", intents(aa), []string{"feedback", "pause"})
	eq(t, "checkpoint slots", aa.Intents["feedback"].Slots["text"].Required, true)

	ba := find(t, st, "beta_awaiting_reply")
	eq(t, "view params", ba.View.Template, "Beta 1")
	eq(t, "guard (beta)", ba.Arms("approve")[0].When, "world.count < 1")
	eq(t, "targets (beta)", []string{target(t, ba, "approve", 0), target(t, ba, "approve", 1)}, []string{"finish", "ended_finish"})
	eq(t, "checkpoint intents (beta)", intents(ba), []string{"feedback", "pause"})
}

func TestPhasesTemplateValues(t *testing.T) {
	st := expand(t, upstream+"phases-template-values")
	eq(t, "states", names(st.States), []string{"end", "failed", "one_executing", "two_executing"})
	one := find(t, st, "one_executing")
	set := one.OnEnter[0].Set
	eq(t, "set rendered", []any{set[0].Value, set[1].Value, set[2].Value}, []any{"First", "3", "two_executing"})
	eq(t, "with rendered", one.OnEnter[1].With, map[string]any{"cmd": "echo First one {id}", "n": "3"})
	eq(t, "invoke kept", one.OnEnter[1].Invoke, "host.run")
	eq(t, "say", one.OnEnter[2].Say, "Phase First")
	eq(t, "emit guard", one.OnEnter[3].When, "world.n < 3")
	eq(t, "emit_intent", one.OnEnter[3].EmitIntent(), "go")
	eq(t, "arm guard", one.Arms("go")[0].When, "world.n >= 3")
	eq(t, "arm target", target(t, one, "go", 0), "two_executing")
	eq(t, "stay arm", target(t, one, "go", 1), ".")

	two := find(t, st, "two_executing")
	set = two.OnEnter[0].Set
	eq(t, "set rendered (two)", []any{set[0].Value, set[1].Value, set[2].Value}, []any{"Second", "5", "failed"})
	eq(t, "with rendered (two)", two.OnEnter[1].With, map[string]any{"cmd": "echo Second two {id}", "n": "5"})
	eq(t, "arm (two)", []string{two.Arms("go")[0].When, target(t, two, "go", 0)}, []string{"world.n >= 5", "failed"})
	// effects are copies, not shared with the template or the other phase
	if one.OnEnter[1] == two.OnEnter[1] || reflect.ValueOf(one.OnEnter[1].With).UnsafePointer() == reflect.ValueOf(two.OnEnter[1].With).UnsafePointer() {
		t.Error("effects shared between phases")
	}
}

// TestKitchenSinkPhase: the phase-generated target the loader resolves as
// TargetPhase (story.ResolveTarget) is the state the expansion creates.
func TestKitchenSinkPhase(t *testing.T) {
	st := expand(t, upstream+"kitchen-sink")
	s := find(t, st, "plan_phase_executing")
	eq(t, "view", s.View.Template, "Plan")
	eq(t, "next", target(t, s, "approve", 0), "done")
}

// TestIncludedPhases: phases: and phase_templates: merged from an
// include: file expand like the manifest's own.
func TestIncludedPhases(t *testing.T) {
	st := expand(t, upstream+"include-dropped-keys")
	s := find(t, st, "one_s")
	eq(t, "target", target(t, s, "go", 0), "done")
}

// TestLoaderAgrees: every top-level state the expansion generates is one
// the loader already resolves as a phase target (story.TargetPhase), so
// validate's view of the story and the run's agree.
func TestLoaderAgrees(t *testing.T) {
	for _, dir := range []string{"phases-full", "phases-params", "phases-template-values", "kitchen-sink", "include-dropped-keys"} {
		loaded := storyload.LoadNoEnv(t, upstream+dir)
		before := map[string]bool{}
		for _, s := range loaded.States {
			before[s.Name] = true
		}
		st := expand(t, upstream+dir)
		n := 0
		for _, s := range st.States {
			if before[s.Name] {
				continue
			}
			n++
			tg, err := loaded.ResolveTarget(s.Name)
			if err != nil || tg.Kind != story.TargetPhase {
				t.Errorf("%s: generated %q is not a loader phase target (%v, %v)", dir, s.Name, tg.Kind, err)
			}
		}
		if n == 0 {
			t.Errorf("%s: nothing generated", dir)
		}
	}
}

// TestEntryIDKeyIgnored: an entry's own id: key does not rename its phase
// ({id} and {{ tpl.id }} stay the graph key), as upstream (probe
// phase-entry-id).
func TestEntryIDKeyIgnored(t *testing.T) {
	st := loadLoose(t, head+`phase_templates:
  t:
    parameters: {id: {type: string, default: dflt}}
    states:
      "{id}_s": {view: "{{ tpl.id }}"}
phases:
  template: t
  graph: {b: {id: zz}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	eq(t, "view", find(t, st, "b_s").View.Template, "b")
}

// TestNameSuffixes: what a generated state gets from its phase is decided
// by its top-level name, as upstream (probe phase-name-suffixes): the entry
// on_enter and the cycle budgets reach every *_executing state the phase
// generates, the checkpoint intents every *_awaiting_reply one; a nested
// state, even one named <id>_awaiting_reply, gets neither.
func TestNameSuffixes(t *testing.T) {
	st := loadLoose(t, head+`checkpoint_intents: {ok: {description: ok}}
phase_templates:
  t:
    parameters: {k: {type: string, default: ""}}
    states:
      "{k}": {on: {go: [{target: .}]}}
      "{id}_executing_x": {}
      "{k}_awaiting_reply": {}
      "{id}_box":
        type: compound
        initial: in_executing
        states:
          in_executing: {}
          a_awaiting_reply: {}
phases:
  template: t
  graph: {a: {k: zed_executing, cycle_budgets: {go: 1}, on_enter: [{set: {s: x}}]}}
`)
	if err := phases.Expand(st); err != nil {
		t.Fatal(err)
	}
	if z := find(t, st, "zed_executing"); len(z.OnEnter) != 1 || len(z.Arms("go")) != 2 {
		t.Errorf("zed_executing: on_enter %d, go arms %d; want the entry's and the budget's", len(z.OnEnter), len(z.Arms("go")))
	}
	for _, p := range []string{"a_executing_x", "a_box.in_executing"} {
		if len(find(t, st, p).OnEnter) != 0 {
			t.Errorf("%s got the entry on_enter", p)
		}
	}
	if find(t, st, "zed_executing_awaiting_reply").Intents["ok"] == nil {
		t.Error("zed_executing_awaiting_reply has no checkpoint intent")
	}
	if find(t, st, "a_box.a_awaiting_reply").Intents["ok"] != nil {
		t.Error("a nested a_awaiting_reply got the checkpoint intent")
	}
}
