package flowtest

import (
	"fmt"
	"slices"
	"time"

	"kitsoki/pkg/story"
)

// clockStill reports whether a turn's advance_clock (it runs after the
// intent: flow-format §3) certainly leaves the machine where the intent
// left it, in one of ss: none of them or their ancestors has a timeout:
// (story-runtime §4) and no background job's on_complete in the story
// may move the machine (storyIndex.jobs). True for a turn without one.
func (l *fixtureLint) clockStill(t *Turn, ss ...*story.State) bool {
	if !t.HasAdvance {
		return true
	}
	return !l.ix.jobs && noTimeout(ss)
}

// clockStillStaying is clockStill for a turn that stays at s and starts
// nothing (a clarification, where s's on_enter holds no emit_intent the
// post-bind pass could fire): only a job out before it could land
// (probed: fix-tests' idle, start without its required test_cmd and
// advance_clock, stays idle).
func (l *fixtureLint) clockStillStaying(t *Turn, s *story.State) bool {
	if !t.HasAdvance {
		return true
	}
	if slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" }) {
		return l.clockStill(t, s)
	}
	return !l.jobMayLand() && (noTimeout([]*story.State{s}) || l.startTimerStill(t, s))
}

// startTimerStill reports whether t, the fixture's first intent turn,
// fired where it starts (s, the initial_state), every turn before it
// only advancing the clock, leaves s's own timeout: unfired through its
// advance: the start arms it (first-rest-clock f), its literal after:
// is longer than every advance so far, and no ancestor has one
// (conformance lint-clarify-world h).
func (l *fixtureLint) startTimerStill(t *Turn, s *story.State) bool {
	if s.Path != l.fx.InitialState || !l.firstIntent(t, s) || !noTimeout([]*story.State{s.Parent}) {
		return false
	}
	var moved time.Duration
	for _, u := range l.fx.Turns {
		moved += u.AdvanceClock
		if u == t {
			break
		}
	}
	return startTimerWaits(s, moved)
}

// restArms reports whether a turn, or a timeout, that ends resting at s
// arms s's timeout: afresh. Neither engine arms one where the session
// rests in a terminal state, whether a user turn stays there or moves
// into it, or a timeout lands on it (conformance
// storymut-terminal-no-timeout, timeout-terminal-listener,
// lint-terminal-rest-unarmed); a terminal ancestor counts too, as a
// terminal parallel root does for its leaves (engine terminalAt).
func restArms(s *story.State) bool {
	for ; s != nil; s = s.Parent {
		if s.Terminal {
			return false
		}
	}
	return true
}

// noTimeout reports whether none of ss or their ancestors has a timeout:.
func noTimeout(ss []*story.State) bool {
	for _, s := range ss {
		for ; s != nil; s = s.Parent {
			if s.Timeout() != nil {
				return false
			}
		}
	}
	return true
}

// clockStays is where a clock-only turn leaves the fixture resting at
// r, with no timeout or moving job: at r (r.at, or one of r.alt). An
// expect_state naming none of them fails on both engines.
func (l *fixtureLint) clockStays(t *Turn, r rest) rest {
	if t.ExpectState != nil && *t.ExpectState != r.at.Path && !slicesHasPath(r.alt, *t.ExpectState) && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn only advances the clock at %q (where %s%s), which has no timeout: (nor its ancestors%s), and no background job of the story moves the machine when it lands: it stays at %q%s; the assertion fails on both engines; expect_state: %s, add the timeout: that should move it, or fix the turns before it",
			t.Index, *t.ExpectState, r.at.Path, r.from, orAt(r.alt, "or at %s, "+r.altWhy()), orAll(r.alt, "; nor do the states it may rest in instead"), r.at.Path, orAt(r.alt, "or at %s"), r.at.Path)
		return rest{}
	}
	from := fmt.Sprintf("turns[%d] only advances the clock, with no timeout or moving job: it stays", t.Index)
	if t.ExpectState != nil && len(r.alt) > 0 && (*t.ExpectState == r.at.Path || slicesHasPath(r.alt, *t.ExpectState)) {
		// where the assertion passes, it rests there
		return rest{at: l.ix.byPath[*t.ExpectState], from: fmt.Sprintf("turns[%d].expect_state rests", t.Index)}
	}
	return rest{at: r.at, alt: r.alt, why: r.why, from: from, armed: r.armed}
}

// orAll is text when ss holds a state, for a message.
func orAll(ss []*story.State, text string) string {
	if len(ss) == 0 {
		return ""
	}
	return text
}

// clockNote says, for a message, that the turn's advance_clock moves
// nothing there.
func clockNote(t *Turn) string {
	if !t.HasAdvance {
		return ""
	}
	return " (and its advance_clock, with no timeout there and no background job that moves the machine, leaves it there)"
}
