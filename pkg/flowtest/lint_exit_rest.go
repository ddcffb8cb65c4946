package flowtest

import (
	"fmt"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// A turn that leaves the root story through @exit:NAME rests the machine
// at __exit__NAME, where no state takes any intent: a later turn firing
// one is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines, on both
// paths, even where an ancestor of the state it left had a "*" arm
// (probed: top.a's go: @exit:done, then x or go again; an imported
// child's @exit is the importer's exit target once folded, so a child's
// arm that ends the root story counts too: frontier_event's
// bandits__pay). The fixture rests there after a turn whose
// expect_state names __exit__NAME (if it does not, that assertion fails
// first), after one that certainly takes an arm targeting @exit:NAME
// (exitStep), after one whose every arm, emit and on_error can only end
// there (mayExit: probed, a guarded arm and an unguarded one both to
// @exit:done, then look), and after a clock-only turn whose timeout fires to one
// (clockFires). A story with a moving background job that may be out
// is not judged (restAt).

// exitStep is where t, fired at r with its intent reaching arc, rests
// when the arm it certainly takes there targets @exit:NAME literally and
// nothing on the way may move it elsewhere: the arm's effects and the
// on_exit of the states it leaves are still (stillEffect: no call whose
// on_error may redirect, no emit), the arm has no parallel emit: list,
// and no advance_clock may let a moving job land.
func (l *fixtureLint) exitStep(t *Turn, r rest, arc string) (rest, bool) {
	at := r.at
	if at == nil || len(r.alt) > 0 || !l.intentJudged(t, at, arc) || (t.HasAdvance && l.ix.jobs) {
		return rest{}, false
	}
	n, a := chosenArm(at, arc, l.guardOf(t))
	tt := ""
	if a != nil {
		tt = strings.TrimSpace(a.Target)
	}
	name, ok := strings.CutPrefix(tt, "@exit:")
	if !ok || name == "" || story.IsTemplated(tt) || len(a.Emit()) > 0 || !allEffects(a.Effects, l.stillEffect()) {
		return rest{}, false
	}
	for s := at; s != nil; s = s.Parent {
		if !allEffects(s.OnExit(), l.stillEffect()) {
			return rest{}, false
		}
	}
	return rest{exit: name, from: fmt.Sprintf("turns[%d] %q, fired at %q (where %s), takes %s of %q, which targets @exit:%s", t.Index, t.Intent.Name, at.Path, r.from, armTook(at, arc, a), n.Path, name)}, true
}

// exitRest is the rest an expect_state naming __exit__NAME (no state of
// the story) leaves, when the turn passes it.
func (l *fixtureLint) exitRest(t *Turn) (rest, bool) {
	if t.ExpectState == nil {
		return rest{}, false
	}
	name, ok := strings.CutPrefix(*t.ExpectState, "__exit__")
	if !ok || name == "" || l.ix.byPath[*t.ExpectState] != nil {
		return rest{}, false
	}
	return rest{exit: name, from: fmt.Sprintf("turns[%d].expect_state rests there", t.Index)}, true
}

// exitRejected warns at a turn whose intent fires where the fixture
// rests at an exit; it reports whether it warned.
func (l *fixtureLint) exitRejected(t *Turn, r rest) bool {
	if r.exit == "" {
		return false
	}
	via, at := "@exit:"+r.exit, fmt.Sprintf("%q", "__exit__"+r.exit)
	for _, e := range r.exitAlt {
		via += " or @exit:" + e
		at += fmt.Sprintf(" or %q", "__exit__"+e)
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q fires after the fixture left the story through %s (%s): it rests at %s, where no state takes any intent, so the turn is rejected %s on both engines, if the fixture gets this far; end the fixture at the exit (expect_state: __exit__%s), fire the intent before the turn that exits, or expect the rejection (expect_error: {code: %s})",
		t.Index, t.Intent.Name, via, r.from, at, engine.CodeNotAllowed, r.exit, engine.CodeNotAllowed)
	return true
}
