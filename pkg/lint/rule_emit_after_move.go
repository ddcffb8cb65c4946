package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEmitAfterMove = &Rule{ID: "emit-after-move", Severity: diag.Warning, LintOnly: true,
	Summary: "an unguarded emit_intent follows, in the same list, an emit whose arm moves the machine to a state where no arm (of the state or an ancestor) takes the later intent: the list goes on at the new state, so the later emit finds no arm there, on both engines, whenever the earlier emit fires: " + noArmOutcome,
	Example: "on_enter:\n  - emit_intent: a   # its arm moves to t\n  - emit_intent: b   # t has no on: b"}

// checkEmitAfterMove warns about an unguarded emit_intent listed after an
// emit whose arm certainly moves to a leaf that does not take it: the
// engines dispatch each emit of a list at the state the previous one left
// (probed with the existing engine: "emit_intent "b" at "t": no
// transition arm matched"). Only what is certain is reported: every arm
// on the way is the intent's first and unguarded, and no state the moves
// leave or enter emits on its own.
func checkEmitAfterMove(c *checker) { c.eachEmitList(c.emitsAfterMove) }

// emitsAfterMove follows the emit_intent entries of effs, dispatched
// first at the leaf at, and warns at the first unguarded one a move by an
// earlier emit leaves without an arm.
func (c *checker) emitsAfterMove(at *story.State, effs []*story.Effect, where emitPlace) {
	if !plainLeaf(at) {
		return
	}
	cur, by, moved := at, "", false
	for _, e := range effs {
		name := strings.TrimSpace(e.EmitIntent())
		if name == "" {
			continue
		}
		if story.IsTemplated(name) {
			return
		}
		if moved && e.When == "" && !takes(cur, name) {
			c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitAfterMove,
				"%s: emit_intent %q comes after emit_intent %q, whose arm moves the machine to %q when it fires; the list goes on there, and no arm of %q or its ancestors takes %q, so it finds none: "+noArmOutcome+" (add an arm for %q to %q, or guard this emit with a when: that is false whenever %q fires)",
				where, name, by, cur.Path, cur.Path, name, name, cur.Path, by)
			return
		}
		arm := firstArm(cur, name)
		if arm == nil || arm.When != "" || hasEmit(arm.Effects) {
			return
		}
		tg, err := cur.Resolve(arm.Target)
		if err != nil {
			return
		}
		switch tg.Kind {
		case story.TargetStay:
			continue
		case story.TargetState:
		default:
			return // an exit is emit-after-exit's
		}
		if tg.State.Import != nil {
			return
		}
		dst := c.descend(tg.State)
		if !plainLeaf(dst) || dst == cur || emitsOnWay(cur, dst) {
			return
		}
		cur, by, moved = dst, name, true
	}
}

// plainLeaf: s is a leaf outside any parallel state (where an emit may
// be taken by another region).
func plainLeaf(s *story.State) bool {
	return s != nil && !s.Parallel && len(s.Children) == 0 && !inParallel(s)
}

// takes reports whether an arm of s or an ancestor takes intent (a "*"
// entry counts, as it may).
func takes(s *story.State, intent string) bool {
	return nearest(s, func(s *story.State) bool { return s.HasOn(intent) || s.HasOn("*") }) != nil
}

// emitsOnWay reports an emit in the on_exit of a state a move from
// `from` to `to` may leave, or the on_enter of one it may enter (every
// ancestor counted, which only ever silences the rule).
func emitsOnWay(from, to *story.State) bool {
	for s := from; s != nil; s = s.Parent {
		if hasEmit(s.OnExit()) {
			return true
		}
	}
	for s := to; s != nil; s = s.Parent {
		if hasEmit(s.OnEnter) {
			return true
		}
	}
	return false
}
