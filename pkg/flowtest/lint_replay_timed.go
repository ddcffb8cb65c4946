package flowtest

import (
	"context"
	"fmt"

	"kitsoki/pkg/engine"
)

// A turn that fires an intent and advances the clock (advance_clock: with
// intent:) is followed on the run as the rig runs it (fixtureRun.turn):
// the intent fired, then, on the orchestrator path, the clock advanced
// by it, landing the jobs due by then (the legacy path advances
// nothing), and the turn judged where that leaves it: its expect_state
// on the state after the advance, its view re-rendered there when the
// turn's own came from the rig (conformance rig-view-after-advance), its
// events the intent's alone (the rig reads none of the advance's).
// Followed only where a timeout the advance may fire is armed as the
// rig arms it: on a story with no timeout:, or on a run started at the
// fixture's first turn as the rig starts (replayFirst), which has
// followed every turn since (conformance synthetic-fail-turn-number
// badwrong: the turn numbers after failing landings).

// replayFollows reports whether the run follows t as a turn that fires
// an intent: replayTurn's, an input: turn's (replayInputTurn), or one
// that also advances the clock where the run's timeouts are the rig's
// (first: the run started as the rig starts).
func (l *fixtureLint) replayFollows(t *Turn, first bool) bool {
	if replayTurn(t) || l.replayInputTurn(t) {
		return true
	}
	timed := t.Intent != nil && t.Intent.Name != "" && len(t.WorldOverride) == 0 && t.HasAdvance && t.AdvanceClock >= 0 && !t.HasInput && t.ExpectError == nil
	return timed && (first || l.ix.noTimeouts())
}

// replayTimedAdvance advances the run's clock by t's advance_clock after
// its intent (turn), where the rig does: on the orchestrator path, a
// turn accepted or asking for a missing slot. false, the run ended, when
// the machine cannot.
func (l *fixtureLint) replayTimedAdvance(t *Turn, turn *engine.Turn) bool {
	rp := l.replay
	rp.advanced = false
	if !t.HasAdvance || t.AdvanceClock <= 0 || !l.fx.Orchestrated() || turn.Err != nil ||
		turn.Rejection != nil && turn.Rejection.Code != engine.CodeMissingSlots {
		return true
	}
	if rp.sess.AdvanceClock(context.Background(), t.AdvanceClock) != nil {
		l.endReplay()
		return false
	}
	rp.advanced = true
	return true
}

// advancedBy says, for a message, that the turn advanced the clock after
// its intent.
func (rp *parReplay) advancedBy(t *Turn) string {
	if !rp.advanced {
		return ""
	}
	return fmt.Sprintf(", the clock advanced %s after the intent", t.AdvanceRaw)
}

// noTimeouts reports whether no state of the story has a timeout:.
func (ix *storyIndex) noTimeouts() bool {
	for _, s := range ix.byPath {
		if s.Timeout() != nil {
			return false
		}
	}
	return true
}
