package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
)

// replayEvents judges t's expect_events and expect_events_exact on the
// events the run's accepted turn wrote (fired at before), read as the
// rig reads them (toEvents; the orchestrator's state paths): an
// expect_events entry found in no ordered subsequence, an
// expect_events_exact of another length, or one whose entry at a place
// names another kind, from or to, fails on both engines (the run is the
// rig's machine: conformance cap-rest-neighbours endto,
// expect-empty-exact-keys). Judged only where the events are the rig's
// whatever came before the run: a story with no background job (no
// landing merged into a turn), a turn with no display_input, and
// entries naming only a kind, from and to (a payload field may hold a
// turn number, an id or a time the run, started mid-fixture, does not
// share; on a run started as the rig starts, parReplay.first, its
// payload fields too: conformance synthetic-fail-turn-number's turn),
// none harness.dispatched (which the rig stands foreground calls in
// for). It reports whether it warned.
func (l *fixtureLint) replayEvents(t *Turn, turn *engine.Turn, before string) bool {
	if l.ix.background && !l.replay.quiet || t.DisplayInput != "" || len(t.ExpectEvents) == 0 && !t.HasEventsExact {
		return false
	}
	plain := plainEventExpect
	if l.replay.first {
		plain = func(w EventExpect) bool { return w.Kind != kindDispatched }
	}
	legacy := !l.fx.Orchestrated()
	evs := toEvents(turn.Events, legacy)
	if !legacy {
		orchestratorStatePaths(evs, before)
	}
	if i, ok := eventsMissing(t.ExpectEvents, evs, plain); ok && i >= 0 {
		want := t.ExpectEvents[i]
		l.warn(want.Pos, ruleEvents, "turns[%d].expect_events[%d]: %s, but %s, fired at %q, writes no such event after the entries before it (it writes: %s) on %s: the assertion fails on both engines; expect the events the turn writes, or fix the turns before it",
			t.Index, i, describeEvent(want), firedName(t, l.replay.fired), before, eventKinds(evs), l.replayHow())
		return true
	}
	if !t.HasEventsExact {
		return false
	}
	if len(evs) != len(t.ExpectEventsExact) {
		l.warn(t.valueAt("expect_events_exact"), ruleEvents, "turns[%d].expect_events_exact: %d event(s), but %s, fired at %q, writes %d (%s) on %s: the count is compared first and fails on both engines; list every event the turn writes, or use expect_events (an ordered subsequence)",
			t.Index, len(t.ExpectEventsExact), firedName(t, l.replay.fired), before, len(evs), eventKinds(evs), l.replayHow())
		return true
	}
	for i, want := range t.ExpectEventsExact {
		if plain(want) && !eventMatches(want, evs[i]) {
			l.warn(want.Pos, ruleEvents, "turns[%d].expect_events_exact[%d]: %s, but %s, fired at %q, writes %s there on %s: the assertion fails on both engines; expect the events the turn writes, or fix the turns before it",
				t.Index, i, describeEvent(want), firedName(t, l.replay.fired), before, describeWritten(evs[i]), l.replayHow())
			return true
		}
	}
	return false
}

// eventsMissing is the index of the first of wants found in no ordered
// subsequence of evs (-1: all found), as the rig's eventChecks looks;
// ok is false when some entry is not plain.
func eventsMissing(wants []EventExpect, evs []event, plain func(EventExpect) bool) (int, bool) {
	if slices.ContainsFunc(wants, func(w EventExpect) bool { return !plain(w) }) {
		return 0, false
	}
	cur := 0
	for i, want := range wants {
		k := slices.IndexFunc(evs[cur:], func(ev event) bool { return eventMatches(want, ev) })
		if k < 0 {
			return i, true
		}
		cur += k + 1
	}
	return -1, true
}

// plainEventExpect is an entry naming only a kind, from and to, and not
// harness.dispatched.
func plainEventExpect(w EventExpect) bool {
	return len(w.Effect) == 0 && w.Kind != kindDispatched
}

// eventKinds lists evs' kinds, for messages.
func eventKinds(evs []event) string {
	if len(evs) == 0 {
		return "none"
	}
	var ks []string
	for _, ev := range evs {
		ks = append(ks, describeWritten(ev))
	}
	return diag.Clip(strings.Join(ks, ", "), writtenShown)
}

// describeWritten is an event's kind, with its from and to when it has them.
func describeWritten(ev event) string {
	s := ev.Kind
	if f, t := ev.str("from"), ev.str("to"); f != "" || t != "" {
		s += " " + f + "→" + t
	}
	return s
}

// writtenShown bounds the events a message lists.
const writtenShown = 240
