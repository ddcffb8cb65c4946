package flowtest

import (
	"fmt"
	"slices"

	"kitsoki/pkg/story"
)

// clarifies reports a turn the orchestrator path certainly answers with
// a clarification: every declaration of the intent it reaches (the
// global one, each state's own) requires a slot the turn leaves out
// (absent or null). The machine stays where it is (flow-format §3.2;
// probed: go needing who, sent without it, got lobby, want hall).
func (l *fixtureLint) clarifies(t *Turn, decls []*story.Intent) bool {
	if !l.fx.Orchestrated() || t.Intent == nil || len(decls) == 0 {
		return false
	}
	return !slices.ContainsFunc(decls, func(d *story.Intent) bool {
		return d == nil || !l.leavesRequired(t, []*story.Intent{d})
	})
}

// clarifyRest is r, or, for a first turn r leaves unknown, the
// fixture's initial_state leaf when a clarification certainly leaves it
// there: the rig runs no initial on_enter, and the post-bind pass walks
// only the resting state's own on_enter emit_intent entries (story-runtime
// §1.9), of which it has none (probed: docs-review's idle, whose on_enter
// calls host.run, stays idle).
func (l *fixtureLint) clarifyRest(t *Turn, r rest) rest {
	if r.at != nil || t != l.fx.Turns[0] {
		return r
	}
	s := l.ix.plainLeaf(l.fx.InitialState)
	if s == nil || slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" }) {
		return r
	}
	return rest{at: s, from: "the fixture starts (initial_state)"}
}

// leftOut names, for a message, a required slot of d that t leaves out.
func leftOut(t *Turn, d *story.Intent) string {
	sent := map[string]bool{}
	for _, kv := range t.Intent.Slots {
		sent[kv.Key] = kv.Value != nil
	}
	var names []string
	for sn, sl := range d.Slots {
		if sl != nil && sl.Required && !sent[sn] {
			names = append(names, sn)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// stays is where a turn that clarifies leaves the fixture: where it
// rests (r.at, certain); an expect_state naming another state of the
// story fails on both engines, and is warned. The clarification runs no
// effect, so the world keeps what it held (its world_override written:
// conformance lint-clarify-world), unless the state or an ancestor has
// an on_enter emit_intent the post-bind pass may walk.
func (l *fixtureLint) stays(t *Turn, r rest, arc string) rest {
	for s := r.at; s != nil; s = s.Parent {
		if slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" }) {
			l.world.loseAll()
		}
	}
	if t.ExpectState != nil && *t.ExpectState != r.at.Path && l.ix.hasState(*t.ExpectState) {
		slot := leftOut(t, l.ix.decls[arc][0])
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q leaves out its required slot %q: on this orchestrator-path fixture the turn is a clarification, and the machine stays at %q (where %s); the assertion fails on both engines; send the slot (slots: {%s: ...}), or expect_state: %s",
			t.Index, *t.ExpectState, t.Intent.Name, slot, r.at.Path, r.from, slot, r.at.Path)
		return rest{}
	}
	return rest{at: r.at, from: fmt.Sprintf("turns[%d] %q is a clarification (a required slot left out): it stays", t.Index, t.Intent.Name)}
}
