package flowtest

import (
	"slices"
	"strings"
	"time"

	"kitsoki/internal/duration"
	"kitsoki/pkg/story"
)

// firstRest is where a fixture's first intent fires when startRest
// leaves it unknown because the initial_state's own on_enter has an
// emit_intent: at the initial_state leaf all the same. The rig never
// runs the initial on_enter, and the post-bind pass that walks the
// resting state's own emit_intent entries runs only after a turn with
// an intent (story-runtime §1.9), so the first intent is judged there
// (probed: a whose on_enter emits go, unguarded, to b; a first turn
// firing x, which only b takes, is rejected INTENT_NOT_ALLOWED_IN_STATE
// at a on the existing engine), also after clock-only turns where no
// timeout: can fire (conformance first-rest-clock: they run no post-bind
// pass). Only the judgement of that one turn uses it: where the turn
// leads is not followed from it (a turn that stays may be moved by those
// emits).
//
// An initial_state naming a compound rests on the compound itself, not
// descended (conformance start-flat): the first intent is judged there,
// at that path and its ancestors, on both paths (conformance
// first-rest-compound).
func (l *fixtureLint) firstRest(t *Turn, r rest) rest {
	if r.at != nil || len(l.fx.Turns) == 0 {
		return r
	}
	if t == l.fx.Turns[0] || l.firstAfterIdleClock(t) {
		if s := l.parStart(); s != nil {
			return rest{at: s, from: "the fixture starts (initial_state: the rig fires the first intent at that path and its ancestors only, not at a parallel state's regions)"}
		}
	}
	s := l.ix.byPath[l.fx.InitialState]
	if s == nil || !l.firstIntent(t, s) {
		return r
	}
	if len(s.Children) > 0 && !inParallel(s) {
		return rest{at: s, from: "the fixture starts (initial_state: a compound, on which the rig rests without entering its initial: child, so the first intent fires at that path and its ancestors only)"}
	}
	if !l.fx.Orchestrated() || l.ix.plainLeaf(s.Path) == nil || !slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e != nil && e.EmitIntent() != "" }) {
		return r
	}
	return rest{at: s, from: "the fixture starts (initial_state: the rig runs no initial on_enter, and its emit_intent entries are walked only after a turn with an intent)"}
}

// firstIntent reports whether t is the fixture's first turn with an
// intent, every turn before it only advancing the clock at s, where no
// timeout: can fire: s's own is armed at the start, and fires once the
// advances reach its after: (conformance first-rest-clock f,
// first-rest-timer); an ancestor's is not, the start entering none
// (first-rest-clock g).
func (l *fixtureLint) firstIntent(t *Turn, s *story.State) bool {
	if t.Intent == nil {
		return false
	}
	var moved time.Duration
	for _, u := range l.fx.Turns {
		if u == t {
			return true
		}
		moved += u.AdvanceClock
		if u.Intent != nil || u.HasInput || !startTimerWaits(s, moved) {
			return false
		}
	}
	return false
}

// startTimerWaits reports whether the timeout: s's start arms certainly
// has not fired once the clock moved by moved: s has none, or its literal
// after: is longer.
func startTimerWaits(s *story.State, moved time.Duration) bool {
	tm := s.Timeout()
	if tm == nil {
		return true
	}
	after := strings.TrimSpace(tm.After)
	if story.IsTemplated(after) {
		return false
	}
	d, err := duration.Parse(after)
	return err == nil && d > 0 && moved < d
}

// firstAfterIdleClock reports whether t is the fixture's first turn with
// an intent and every turn before it only advanced the clock, with no
// timeout: at the initial_state, above or below it (conformance
// first-rest-timer f, g: at a parallel initial_state the first intent
// fires at that path after them as before them).
func (l *fixtureLint) firstAfterIdleClock(t *Turn) bool {
	s := l.ix.byPath[l.fx.InitialState]
	if s == nil || t.Intent == nil || !noTimeout(append([]*story.State{s}, story.Flatten(s.Children)...)) || l.ix.background {
		return false
	}
	for _, u := range l.fx.Turns {
		if u == t {
			return true
		}
		if u.Intent != nil || u.HasInput {
			return false
		}
	}
	return false
}

// parStart is the initial_state when it names a parallel state or a
// state inside one by its plain path (no root#leaf|leaf): both engines
// fire the first intent there as at any state, taking it at that state
// and its ancestors only (conformance lint-par-in, fixtures a, b, h: at clock.weather.dry
// tick, which the calendar region's day1 takes, is refused
// INTENT_NOT_ALLOWED_IN_STATE on both paths, and at clock so is
// precip_heavy, which the calendar region takes). Where the turn leads
// from there is not followed.
func (l *fixtureLint) parStart() *story.State {
	p := l.fx.InitialState
	if strings.Contains(p, "#") {
		return nil
	}
	if s := l.ix.byPath[p]; s != nil && inParallel(s) {
		return s
	}
	return nil
}
