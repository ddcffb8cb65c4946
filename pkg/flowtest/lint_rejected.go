package flowtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// rejected warns at a turn whose intent both engines certainly reject
// (story-runtime §1.4; each probed with the existing engine, where the
// fixture fails with "unexpected validation error: <code>"):
//
//   - the intent is declared but no state of the story takes it (no on:
//     arm anywhere, no "*"): INTENT_NOT_ALLOWED_IN_STATE wherever it fires;
//   - the state the fixture certainly rests in (see rest) takes, with its
//     ancestors, neither the intent nor "*": INTENT_NOT_ALLOWED_IN_STATE,
//     or an earlier assertion fails;
//   - a required slot a legacy-path turn leaves out (absent or null):
//     MISSING_SLOTS (on the orchestrator path the turn is a clarification,
//     which fails nothing: flow-format §3.2);
//   - a slot value outside the slot's values: (as fmt prints both):
//     INVALID_SLOT_VALUE.
//
// A turn that expects the rejection (expect_error) is not judged, nor a
// slot a {{ }} template fills. A slot is judged against every
// declaration of its intent (the global one and each state's own) and
// reported only when all of them refuse it. After a finding the rest of
// the fixture is not judged: it already fails.
func (l *fixtureLint) rejected(t *Turn) {
	l.beforeTurn(t)
	r := l.restAt(t)
	jr := l.firstRest(t, r) // judged there, not followed from there
	arc, warned := l.judge(t, jr)
	if jr.at == nil && jr.exit == "" && !warned {
		warned = l.parallelAlias(t, l.par) || l.parallelNotTaken(t, l.par) || l.parIn(t, r)
	}
	l.stepped = false
	n := len(l.ds)
	l.rest = l.after(t, r, jr, arc, warned)
	if !warned && len(l.ds) == n {
		l.rest = l.parAfter(t, r, arc, l.rest)
	}
	l.noteJobs(l.stepped)
	if !warned && l.worldExpected(t) {
		l.rest = rest{} // it fails here: the rest is not judged
		l.world.loseAll()
	}
	l.par = parRest(t)
}

// judge checks t fired where r rests (r.at nil: unknown), returning the
// on: name its intent reaches and whether it warned.
func (l *fixtureLint) judge(t *Turn, r rest) (string, bool) {
	ix, at := l.ix, r.at
	if t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded {
		return "", false
	}
	name := t.Intent.Name
	if !ix.intents[name] {
		return "", false // flow-unknown-intent's
	}
	if l.exitRejected(t, r) {
		return "", true
	}
	arcs := slices.Compact(slices.Sorted(slices.Values(ix.aliases[name])))
	if !ix.wildcard && !ix.taken[name] && len(arcs) == 0 {
		l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is declared, but no state of the story takes it (no on: %s arm, and no \"*\"): the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines; add an on: %s arm to the state that should take it, or expect the rejection (expect_error: {code: %s})",
			t.Index, name, name, name, engine.CodeNotAllowed)
		return "", true
	}
	arc := name // the on: name the turn reaches: a bare child spelling stands for its arc
	if len(arcs) == 1 && !ix.taken[name] {
		arc = arcs[0]
	}
	if at != nil {
		if a := ix.aliasOf(at, name); a != "" {
			arc = a
		}
		if !takes(at, arc) && !slices.ContainsFunc(r.alt, func(s *story.State) bool { return takes(s, cmp.Or(ix.aliasOf(s, name), arc)) }) {
			l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is not taken at %q, where %s (it and its ancestors take: %s)%s: the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines, if the fixture gets this far; fire an intent %q takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
				t.Index, name, at.Path, r.from, takenList(at), r.altTaken(), at.Path, engine.CodeNotAllowed)
			return arc, true
		}
	} else if arc == name && len(arcs) > 0 && !ix.taken[name] {
		return "", false // a bare spelling of several children's intents: which one is unknown
	}
	// a left-out required slot is refused (legacy) or a clarification
	// (orchestrator) before any guard is evaluated
	if at != nil && len(r.alt) == 0 && !l.leavesRequired(t, ix.decls[arc]) {
		if l.guardError(t, at, arc, r.from) {
			l.slotTypes(t, ix.decls[arc]) // often the cause: said too
			return arc, true
		}
		if l.noArmHolds(t, at, arc, r.from) {
			return arc, true
		}
	}
	n := len(l.ds)
	l.slots(t, ix.decls[arc])
	warned := len(l.ds) > n
	l.slotTypes(t, ix.decls[arc])
	return arc, warned
}

// aliasOf is the arc name a bare child spelling stands for at s (the
// first of s and its ancestors that maps it, as the engines resolve it),
// or "".
func (ix *storyIndex) aliasOf(s *story.State, name string) string {
	for ; s != nil; s = s.Parent {
		if arc, ok := ix.aliasAt[s.Path][name]; ok {
			return arc
		}
	}
	return ""
}

// rest is where a fixture certainly rests between turns: at is the state
// (nil: unknown), from says why, for messages; alt lists the states a
// failing call's on_error may have moved it to instead (lint_redirect.go).
type rest struct {
	at   *story.State
	alt  []*story.State
	from string
	why  string // why it may rest in alt instead, for messages ("": a failing call's on_error)
	// armed: the turn that left it there certainly ended normally, so its
	// own timeout: is armed with a fresh deadline (clockFires)
	armed bool
	// since: how far clock-only turns moved the clock after that turn
	// (they arm nothing: clockWaits)
	since time.Duration
	// exit: the fixture left the root story through @exit:exit and rests
	// at __exit__<exit> (at nil; lint_exit_rest.go), or through one of
	// exitAlt instead
	exit    string
	exitAlt []string
	// in: the fixture rests somewhere inside this parallel state, its
	// leaves not followed (at nil; lint_par_in.go)
	in *story.State
}

// altWhy says, for a message, why the fixture may rest in r.alt.
func (r rest) altWhy() string {
	return cmp.Or(r.why, "where a failing call's on_error may move it")
}

// altTaken names, for a message, the states of r.alt and what each takes.
func (r rest) altTaken() string {
	var b strings.Builder
	for _, s := range r.alt {
		fmt.Fprintf(&b, ", nor at %q, %s instead (taking: %s)", s.Path, r.altWhy(), takenList(s))
	}
	return b.String()
}

// startRest is where the fixture's first turn fires: its initial_state
// leaf. The rig never runs the initial state's on_enter (probed on the
// orchestrator path: an on_enter that sets a flag and calls a failing
// host with an on_error leaves the flag unset and the fixture where it
// started), but on the orchestrator path the post-bind pass walks the
// state's own on_enter emit_intent entries after a turn that stays
// (story-runtime §1.9), which the lint does not follow from the start.
func (l *fixtureLint) startRest() rest {
	if p := l.ix.parStartIn(l.fx.InitialState); p != nil {
		return rest{in: p, from: "the fixture starts (initial_state)"}
	}
	s := l.ix.plainLeaf(l.fx.InitialState)
	if s == nil || (l.fx.Orchestrated() && slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e == nil || e.EmitIntent() != "" })) {
		return rest{}
	}
	return rest{at: s, from: "the fixture starts (initial_state)", armed: true}
}

// restAt is the state t certainly fires at, or nil: not, past the first
// turn (no job runs before it: the rig never runs the initial on_enter),
// in a story whose
// background job's on_complete may move the machine between turns on the
// orchestrator path (the legacy path runs no job).
func (l *fixtureLint) restAt(t *Turn) rest {
	if l.jobMayLand() || (l.rest.at == nil && l.rest.exit == "" && l.rest.in == nil) {
		return rest{}
	}
	return l.rest
}

// after is where the fixture rests after t, fired at at with its intent
// reaching the on: name arc: the state its expect_state names, else the
// one the unguarded first arm of the intent certainly moves it to (a
// legacy expect_error turn's result is discarded: it stays), else unknown.
//
// jr is where t was judged: r, or on a first turn whose start r leaves
// unknown, the initial_state (firstRest), which only a turn followed
// through its post-bind pass (settled) goes on from.
func (l *fixtureLint) after(t *Turn, r, jr rest, arc string, warned bool) rest {
	ix, at := l.ix, r.at
	if warned || t.ExpectError != nil {
		return l.afterFailed(t, r, warned)
	}
	if t.HasAdvance {
		defer l.world.loseAll() // a job may land, a timeout fire
	}
	if cr := l.clarifyRest(t, r); cr.at != nil && len(cr.alt) == 0 && t.Intent != nil && arc != "" && l.clarifies(t, ix.decls[arc]) {
		if !l.clockStillStaying(t, cr.at) {
			return rest{}
		}
		return l.stays(t, cr, arc)
	}
	to, arm := l.certainStep(t, r, arc)
	if to == nil {
		if sr, ok := l.settled(t, jr, arc); ok {
			return sr
		}
	}
	l.stepped = to != nil
	l.moveWorld(r, to, arm)
	if fr, ok := l.clockFires(t, r); ok {
		return fr
	}
	if t.Intent == nil && at != nil && len(r.alt) == 0 && t.HasAdvance && l.clockStill(t, at) {
		return l.clockStays(t, r)
	}
	var may []string
	if to == nil && l.intentJudged(t, at, arc) {
		may = l.mayRest(t, r, arc)
		if may != nil && t.ExpectState != nil && l.mayWrongState(t, r, may) {
			return rest{}
		}
	}
	if to == nil { // (a certain move to a state: expectedRest warns)
		if er, ok := l.exitAfter(t, r, arc); ok {
			return er
		}
	}
	if t.ExpectState != nil {
		return l.expectedRest(t, r, arc, arm, to)
	}
	if to != nil {
		return rest{at: to[0], alt: to[1:], from: fmt.Sprintf("turns[%d] %q leads (%s moves %q to %q)", t.Index, t.Intent.Name, armLed(at, arc, arm), at.Path, to[0].Path), armed: plainMove(at, arm, to)}
	}
	return l.mayRestAt(t, may)
}

// certainStep is where t, fired at r with its intent reaching arc,
// certainly moves the machine by stepAll, and the arm it takes; nil
// when that is not certain, or an advance_clock may move it on.
func (l *fixtureLint) certainStep(t *Turn, r rest, arc string) ([]*story.State, *story.Transition) {
	if arc == "" || !l.intentJudged(t, r.at, arc) {
		return nil, nil // a clarification (a required slot left out) may stay
	}
	to, arm := l.ix.stepAll(r, t.Intent.Name, arc, l.stillEffect(), l.guardOf(t))
	if to != nil && !l.clockStill(t, to...) {
		return nil, nil
	}
	return to, arm
}

// exitAfter is after for a turn that moves to no state certainly: the
// exit the arm it certainly takes leaves through (when no expect_state
// follows it: expectedRest judges that), else the exit its expect_state
// names.
func (l *fixtureLint) exitAfter(t *Turn, r rest, arc string) (rest, bool) {
	if arc != "" {
		if er, ok := l.exitStep(t, r, arc); ok {
			l.stepped = true
			if t.ExpectState == nil {
				return er, true
			}
		}
	}
	return l.exitRest(t)
}

// intentJudged reports whether where t's intent leads from at is judged:
// the fixture rests somewhere known and, orchestrated, sends every
// required slot (a clarification stays).
func (l *fixtureLint) intentJudged(t *Turn, at *story.State, arc string) bool {
	return at != nil && t.Intent != nil && !(l.fx.Orchestrated() && l.leavesRequired(t, l.ix.decls[arc]))
}

// afterFailed is after for a turn whose result is discarded: one the
// lint already warned at (the fixture fails there) rests nowhere known; a
// legacy expect_error turn stays where it was.
func (l *fixtureLint) afterFailed(t *Turn, r rest, warned bool) rest {
	l.world.loseAll()
	if !warned && !l.fx.Orchestrated() && r.at != nil {
		return r
	}
	return rest{}
}

// expectedRest is after for a turn with an expect_state: a warning when
// the turn certainly moves the machine (to) elsewhere, else the state it
// names when that is a plain leaf.
func (l *fixtureLint) expectedRest(t *Turn, r rest, arc string, arm *story.Transition, to []*story.State) rest {
	ix, at, want := l.ix, r.at, *t.ExpectState
	if to != nil && !slices.ContainsFunc(to, func(s *story.State) bool { return s.Path == want }) && ix.hasState(want) {
		l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q, fired at %q (where %s%s), takes %s that moves it to %q%s%s: the assertion fails on both engines; expect_state: %s, or fix the turns before it",
			t.Index, want, t.Intent.Name, at.Path, r.from, orAt(r.alt, "or at %s, "+r.altWhy()), armTook(at, arc, arm), to[0].Path, orAt(to[1:], "or, when a call's on_error redirects it, to %s"), clockNote(t), to[0].Path)
		return rest{}
	}
	if s := ix.plainLeaf(want); s != nil {
		return rest{at: s, from: fmt.Sprintf("turns[%d].expect_state rests", t.Index)}
	}
	return rest{}
}

// takes reports whether s or an ancestor has an on: arm for intent (or "*").
func takes(s *story.State, intent string) bool {
	for ; s != nil; s = s.Parent {
		if s.HasOn(intent) || s.HasOn("*") {
			return true
		}
	}
	return false
}

// takenList names the intents s and its ancestors take, for a message.
func takenList(s *story.State) string {
	var chain []*story.State
	for ; s != nil; s = s.Parent {
		chain = append(chain, s)
	}
	return takenBy(chain)
}

// takenBy lists the intents the states take on: arms of their own, in
// order, each once, at most eight named; "none" when they take none.
func takenBy(states []*story.State) string {
	var names []string
	for _, s := range states {
		for _, n := range s.OnNames() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return "none"
	}
	if len(names) > 8 {
		names = append(slices.Clip(names[:8]), fmt.Sprintf("… %d more", len(names)-8))
	}
	return strings.Join(names, ", ")
}

// slots warns at a required slot t leaves out, or a value outside a
// slot's values:, when every declaration of the intent refuses it.
func (l *fixtureLint) slots(t *Turn, decls []*story.Intent) {
	if len(decls) == 0 {
		return // undeclared (a "*" arm takes it): slots are not checked
	}
	sent := map[string]KV{}
	for _, kv := range t.Intent.Slots {
		sent[kv.Key] = kv
	}
	first := decls[0]
	for _, sn := range slotNames(first) {
		sl := first.Slots[sn]
		if sl == nil {
			continue
		}
		kv, ok := sent[sn]
		if (!ok || kv.Value == nil) && !l.fx.Orchestrated() && allDecls(decls, func(it *story.Intent) bool { s := it.Slots[sn]; return s != nil && s.Required }) {
			l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q leaves out its required slot %q (absent or null): on this legacy-path fixture the turn is rejected %s on both engines; add slots: {%s: ...} to the intent, or expect the rejection (expect_error: {code: %s})",
				t.Index, t.Intent.Name, sn, engine.CodeMissingSlots, sn, engine.CodeMissingSlots)
			continue
		}
		if !ok || kv.Value == nil || isTemplate(kv.Value) {
			continue
		}
		v := fmt.Sprint(yamlWhole(kv.Value))
		if allDecls(decls, func(it *story.Intent) bool {
			s := it.Slots[sn]
			return s != nil && len(s.Values) > 0 && !slices.Contains(valueTexts(s.Values), v)
		}) {
			l.warn(kv.Pos, ruleRejected, "turns[%d]: slot %q value %q is not one of the intent's values: [%s]: the turn is rejected %s on both engines; send one of them, or expect the rejection (expect_error: {code: %s})",
				t.Index, sn, v, strings.Join(valueTexts(sl.Values), " "), engine.CodeInvalidSlot, engine.CodeInvalidSlot)
		}
	}
}

// slotNames is it's slots in declaration order (by name when unrecorded).
func slotNames(it *story.Intent) []string {
	if len(it.SlotOrder) == len(it.Slots) {
		return it.SlotOrder
	}
	names := make([]string, 0, len(it.Slots))
	for n := range it.Slots {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func allDecls(decls []*story.Intent, f func(*story.Intent) bool) bool {
	return !slices.ContainsFunc(decls, func(it *story.Intent) bool { return it == nil || !f(it) })
}

// valueTexts is values: as the engines compare them (fmt's %v; null is "").
func valueTexts(values []any) []string {
	out := make([]string, len(values))
	for i, x := range values {
		if x != nil {
			out[i] = fmt.Sprint(x)
		}
	}
	return out
}

// isTemplate reports a text holding {{, which the orchestrator path renders.
func isTemplate(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(s, "{{")
}

// leavesRequired reports whether some declaration of the intent has a
// required slot t leaves out (absent or null).
func (l *fixtureLint) leavesRequired(t *Turn, decls []*story.Intent) bool {
	sent := map[string]bool{}
	for _, kv := range t.Intent.Slots {
		sent[kv.Key] = kv.Value != nil
	}
	return slices.ContainsFunc(decls, func(it *story.Intent) bool {
		for sn, sl := range it.Slots {
			if sl != nil && sl.Required && !sent[sn] {
				return true
			}
		}
		return false
	})
}
