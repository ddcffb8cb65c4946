package flowtest

import "kitsoki/pkg/story"

// A background job whose on_complete may move the machine (a target:,
// an emit or a call whose on_error redirects: storyIndex.jobs) can land
// between two turns only once an effect has started it. The rig never
// runs the initial state's on_enter (startRest), so a fixture starts
// with no job out; a turn keeps it so only when where it leads was
// certain (step: every effect of the arm, and of each on_enter it runs,
// is still, and stillEffect admits a background call only when its
// on_complete just sets and says). Any other turn (one the lint does not
// follow, a clock turn, a rejection the fixture expects, a
// clarification) may have started one: from then on the fixture's rest
// and world are unknown between turns, as they were for a whole story
// with such a job before (probed: imports_smoke's processing state
// starts the only one; a fixture that enters sub.idle and fires an
// intent sub.idle does not take is rejected INTENT_NOT_ALLOWED_IN_STATE
// on the existing engine, turns[1]).

// jobMayLand reports whether a job started on the fixture's path may
// move the machine before t fires: on the orchestrator path (the legacy
// path runs no job) of a story with such a job, once a turn may have
// started one.
func (l *fixtureLint) jobMayLand() bool {
	return l.ix.jobs && l.fx.Orchestrated() && l.jobsOut
}

// noteJobs records, after t, whether a moving job may be out: certain
// says where t led was followed effect by effect (and started none).
func (l *fixtureLint) noteJobs(certain bool) {
	if !certain {
		l.jobsOut = true
	}
}

// clockIdle reports whether t only advances the clock where nothing
// moves: it rests at a known state with no timeout: (nor its ancestors),
// or at one of several such (a failing call's on_error may have moved
// it: each stays where it is), and no background job is out, every turn before it followed (a story
// with none, or whose turns the settle walk followed and whose jobs have
// all landed). The machine and its world stay as they were (conformance
// clock-idle: a story whose imported child starts a job, fired there
// after such a turn, is rejected where it rests).
func (l *fixtureLint) clockIdle(t *Turn, r rest) bool {
	if t.Intent != nil || t.HasInput || !t.HasAdvance || r.at == nil || !noTimeout(append([]*story.State{r.at}, r.alt...)) {
		return false
	}
	return !l.ix.background || !l.jobsOut && !l.jobsLost && len(l.jobs) == 0
}
