package flowtest

import (
	"kitsoki/pkg/story"
)

// landingWorld is moveWorld for a turn fired at the plain leaf r.at whose
// arm is certain but whose landing is not (a literal target on a
// compound whose initial: is templated, as cloak's bar, dark or lit by
// wearing_cloak): the arm's effects run, then the on_enter of the states
// entered down to the target, outermost first, then those of the states
// below it it lands on, so every write of those is made uncertain and
// the rest of the world kept (conformance lint-landing-world). It reports whether it
// applied: not where the arm, one of those on_enter lists or one of
// r.at's own may do more than set, increment or say, or the landing may
// be in a parallel state.
func (l *fixtureLint) landingWorld(t *Turn, r rest, arc string) bool {
	ix := l.ix
	if r.at == nil || len(r.alt) > 0 || r.exit != "" || r.in != nil || !l.intentJudged(t, r.at, arc) || arc == "" || inParallel(r.at) ||
		!quietEntry(r.at, plainEffect) { // a pending emit of its on_enter may be decided again (conformance landing-effects-undone)
		return false
	}
	n, a := chosenArm(r.at, arc, l.guardOf(t))
	if a == nil || !allEffects(a.Effects, plainEffect) {
		return false
	}
	d := ix.literalTarget(n, a)
	if d == nil || d.Parallel || inParallel(d) || ix.inside(d, func(s *story.State) bool { return s.Parallel }) {
		return false
	}
	sure := enteredAbove(r.at, d)
	maybe := ix.under(d)
	if sure == nil { // a re-entry of the state or an ancestor: which on_enter runs is not followed
		for s := d; s != nil; s = s.Parent {
			maybe = append(maybe, s)
		}
	}
	for _, s := range append(maybe, sure...) {
		if !allEffects(s.OnEnter, plainEffect) {
			return false
		}
	}
	w, orch := l.world, l.fx.Orchestrated()
	var calls []*story.Effect // (none: every effect is plain)
	w.apply(a.Effects, orch, &calls)
	for s := r.at; s != nil; s = s.Parent {
		w.forget(s.OnExit(), orch)
	}
	for _, s := range sure {
		w.apply(s.OnEnter, orch, &calls)
	}
	for _, s := range maybe {
		w.forget(s.OnEnter, orch)
	}
	return true
}

// enteredAbove lists, outermost first, the states a move from the leaf
// from to a state inside d (or d) certainly enters down to d: d and its
// ancestors that are not from's; nil when d is from or one of its
// ancestors.
func enteredAbove(from, d *story.State) []*story.State {
	var out []*story.State
	for s := d; s != nil; s = s.Parent {
		if s == from || within(from, s) {
			break
		}
		out = append([]*story.State{s}, out...)
	}
	if len(out) == 0 || out[len(out)-1] != d {
		return nil
	}
	return out
}
