package flowtest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/duration"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// clockFires is where a turn that only advances the clock leaves a
// fixture resting certainly at r.at when r.at's own timeout: is due: the
// leaf its literal target lands on (ok true). Both engines re-arm the
// resting state's own timeout with a fresh deadline at the end of every
// turn (and at the start), and an advance fires it once when the
// deadline falls within the advance (story-runtime §4; pkg/engine's
// advance), so an advance_clock that, with the clock-only turns since
// that turn (clockWaits), reaches timeout.after certainly fires it (probed: the timeout story's
// waiting, after: 10d, advance_clock: 11d, then continue is rejected
// INTENT_NOT_ALLOWED_IN_STATE at traveled). An expect_state naming
// another state is warned. Only where the turn that left it there
// certainly ended normally (r.armed: the start, or a move whose arm,
// exits and landing only set, increment or say): a turn whose on_error
// handling is swallowed re-arms nothing (conformance
// swallowed-redirect-timer, cap-origin-timer, landing-call-stays). Not
// judged (ok false) either: a story with
// background jobs (one may land in the same advance), a timeout on an
// ancestor too, a templated or unparsable after:, or a target whose
// landing is not certain. A target that never fires (relative,
// templated, with slashes) leaves the machine where it is (clockDead).
func (l *fixtureLint) clockFires(t *Turn, r rest) (rest, bool) {
	s := r.at
	if t.Intent != nil || t.HasInput || !t.HasAdvance || s == nil || len(r.alt) > 0 || !r.armed || l.ix.jobs || s.Timeout() == nil {
		return rest{}, false
	}
	for a := s.Parent; a != nil; a = a.Parent {
		if a.Timeout() != nil {
			return rest{}, false
		}
	}
	tm := s.Timeout()
	after := strings.TrimSpace(tm.After)
	if story.IsTemplated(after) {
		return rest{}, false
	}
	d, err := duration.Parse(after)
	if err != nil || d <= 0 {
		return rest{}, false
	}
	if r.since+t.AdvanceClock < d {
		return l.clockWaits(t, r, after)
	}
	tt := strings.TrimSpace(tm.Target)
	if engine.DeadTimeoutTarget(tt) {
		return l.clockDead(t, r, after, tt)
	}
	var to []*story.State
	landed := "__exit__" + strings.TrimPrefix(tt, "@exit:")
	if !strings.HasPrefix(tt, "@exit:") {
		if to = l.ix.landing(l.ix.byPath[tt], l.landsSure(l.stillEffect())); to == nil {
			return rest{}, false
		}
		landed = to[0].Path
	}
	why := fmt.Sprintf("turns[%d] advances the clock by %s at %q (where %s), whose timeout: (after: %s) fires and moves it to %q", t.Index, movedBy(t, r), s.Path, r.from, after, landed)
	if t.ExpectState != nil && *t.ExpectState != landed && !slicesHasPath(to[min(1, len(to)):], *t.ExpectState) && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn only advances the clock by %s at %q (where %s), which is at least that state's timeout.after (%s): its timeout fires and moves it to %q%s; the assertion fails on both engines; expect_state: %s, a shorter advance_clock, or fix the timeout",
			t.Index, *t.ExpectState, movedBy(t, r), s.Path, r.from, after, landed, orAt(to[min(1, len(to)):], "or, when a call's on_error redirects it, to %s"), landed)
		return rest{}, true
	}
	if to == nil {
		return rest{exit: strings.TrimPrefix(landed, "__exit__"), from: why}, true
	}
	return rest{at: to[0], alt: to[1:], from: why, armed: len(to) == 1 && quietEntry(to[0], plainEffect) && restArms(to[0])}, true
}

// landsSure is still narrowed to the entries that cannot fail a
// timeout's landing, which upstream rolls back, the machine staying where
// it was (conformance clock/fail-landing): no when: (it may fail to
// evaluate), an increment: only by a literal of a key the known world
// certainly holds a number in (engine.IncrementValue), and each set:
// value a literal or templates that only read world and slots keys by
// name (expr.Template.OnlyReads), which render on any world.
func (l *fixtureLint) landsSure(still func(*story.Effect) bool) func(*story.Effect) bool {
	return func(e *story.Effect) bool {
		if !still(e) || e.When != "" || slices.ContainsFunc(e.Increment(), func(kv story.KV) bool { return !l.adds(kv) }) {
			return false
		}
		return !slices.ContainsFunc(e.Set, func(kv story.KV) bool { return !l.guards.readsOnly(kv.Value) })
	}
}

// adds reports an increment: of kv that certainly adds: a literal delta
// to a key the known world certainly holds a number (or nothing) in, or
// one that only ever holds numbers (numericKey).
func (l *fixtureLint) adds(kv story.KV) bool {
	if l.world == nil || !isNumber(kv.Value) || strings.Contains(kv.Key, ".") || story.IsTemplated(kv.Key) {
		return false
	}
	if v, ok := l.world.get(kv.Key); ok {
		_, adds := engine.IncrementValue(v, kv.Value)
		return adds
	}
	return l.numericKey(kv.Key)
}

// numericKey reports a top-level world key that holds a number, or
// nothing, whenever it is read: its start value, initial_world and every
// world_override are numbers, and every effect of the story that writes
// it sets a literal number or adds one (no bind, template or selection).
func (l *fixtureLint) numericKey(key string) bool {
	ix := l.ix
	if ix.unfolded || ix.story.Phases != nil || len(ix.story.Proposals) > 0 || slices.Contains(story.InjectedWorld(), key) {
		return false
	}
	if v := engine.StoryWorld(ix.story)[key]; v != nil && !isNumber(v) {
		return false
	}
	overrides := slices.Clone(l.fx.InitialWorld)
	for _, t := range l.fx.Turns {
		overrides = append(overrides, t.WorldOverride...)
	}
	if slices.ContainsFunc(overrides, func(kv KV) bool { return writesKey(kv.Key, key) && (kv.Key != key || !isNumber(kv.Value)) }) {
		return false
	}
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		e := p.Effect
		if e.Selection() != nil || slices.ContainsFunc(e.Bind(), func(kv story.KV) bool { return writesKey(kv.Key, key) }) {
			return false
		}
		for _, kv := range slices.Concat(e.Set, e.Increment()) {
			if writesKey(kv.Key, key) && (kv.Key != key || !isNumber(kv.Value)) {
				return false
			}
		}
	}
	return true
}

// writesKey reports a written key name k that may write top-level key
// (itself, a path below it, or a template).
func writesKey(k, key string) bool {
	first, _, _ := strings.Cut(k, ".")
	return first == key || story.IsTemplated(k)
}

// isNumber reports a literal number.
func isNumber(v any) bool {
	switch n := v.(type) {
	case int, int64, uint64:
		return true
	case float64:
		return !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return false
}

// clockWaits is where a clock-only turn leaves the fixture resting at
// r.at when the advance, added to the time the clock moved since the
// turn that armed r.at's timeout, falls short of its after: it stays,
// the deadline where it was. Only an intent turn arms a fresh one; a
// clock-only turn that fires nothing arms nothing (probed: after: 10d,
// advance_clock 6d then 6d fires; 6d, an intent, then 6d does not; 5m
// stays, and a later 11d fires). An expect_state naming another state is
// warned.
func (l *fixtureLint) clockWaits(t *Turn, r rest, after string) (rest, bool) {
	s, since, moved := r.at, r.since+t.AdvanceClock, movedBy(t, r)
	if t.ExpectState != nil && *t.ExpectState != s.Path && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn only advances the clock by %s at %q (where %s), short of that state's timeout.after (%s): the timeout does not fire and it stays at %q; the assertion fails on both engines; expect_state: %s, a longer advance_clock, or fix the turns before it",
			t.Index, *t.ExpectState, moved, s.Path, r.from, after, s.Path, s.Path)
		return rest{}, true
	}
	why := fmt.Sprintf("turns[%d] advances the clock by %s at %q, short of its timeout.after (%s): it stays", t.Index, moved, s.Path, after)
	return rest{at: s, from: why, armed: true, since: since}, true
}

// clockDead is where a clock-only turn leaves the fixture resting at
// r.at when the advance reaches its timeout's deadline but the target tt
// names no state as written (engine.DeadTimeoutTarget: relative,
// templated, with slashes): the timeout never fires and the machine
// stays (conformance timeout-slash-target, lint-timeout-dead); its timer
// is not followed after. An expect_state naming another state is warned.
func (l *fixtureLint) clockDead(t *Turn, r rest, after, tt string) (rest, bool) {
	s, moved := r.at, movedBy(t, r)
	if t.ExpectState != nil && *t.ExpectState != s.Path && l.ix.hasState(*t.ExpectState) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn only advances the clock by %s at %q (where %s), past that state's timeout.after (%s), whose target %q names no state as written (a template, a relative path or slashes are not resolved there): the timeout never fires and it stays at %q; the assertion fails on both engines; expect_state: %s, or write the timeout's target as a dotted path",
			t.Index, *t.ExpectState, moved, s.Path, r.from, after, tt, s.Path, s.Path)
		return rest{}, true
	}
	why := fmt.Sprintf("turns[%d] advances the clock by %s at %q, past its timeout.after (%s), whose target %q never fires: it stays", t.Index, moved, s.Path, after, tt)
	return rest{at: s, from: why}, true
}

// movedBy is, for a message, how far t moves the clock past the turn
// that armed r's timeout.
func movedBy(t *Turn, r rest) string {
	if r.since == 0 {
		return fmtAdvance(t)
	}
	return fmt.Sprintf("%s (%s in all since the turn that armed its timeout)", fmtAdvance(t), r.since+t.AdvanceClock)
}

// plainMove reports whether a turn's move from at through arm to the
// single leaf to[0] certainly ends normally: the arm's effects, the
// on_exit of at and its ancestors and the on_enter of the landing and
// its ancestors only set, increment or say (no call whose on_error
// handling may be swallowed).
func plainMove(at *story.State, arm *story.Transition, to []*story.State) bool {
	if arm == nil || len(to) != 1 || !plainEffects(arm.Effects) || !quietEntry(to[0], plainEffect) {
		return false
	}
	for s := at; s != nil; s = s.Parent {
		if !plainEffects(s.OnExit()) {
			return false
		}
	}
	return true
}

// fmtAdvance is the turn's advance_clock as written, else as Go prints it.
func fmtAdvance(t *Turn) string {
	if t.AdvanceRaw != "" {
		return t.AdvanceRaw
	}
	return t.AdvanceClock.Round(time.Millisecond).String()
}

// slicesHasPath reports whether one of ss has path p.
func slicesHasPath(ss []*story.State, p string) bool {
	for _, s := range ss {
		if s.Path == p {
			return true
		}
	}
	return false
}
