package flowtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
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
	if l.replayed(t) {
		return // followed on the engine's own machine (lint_par_replay.go)
	}
	pre := l.world // the world the turn starts on
	if l.replayInputTurn(t) && pre != nil {
		pre = pre.clone() // beforeTurn loses it: the walk does not follow input:
	}
	l.beforeTurn(t)
	l.landBetween(t)
	l.walked, l.advanced = false, false
	r := l.restAt()
	l.startReplay(t, r, l.replayPre(t, r, pre)) // the engine's machine beside the walk (lint_par_replay.go)
	jr := l.firstRest(t, r)                     // judged there, not followed from there
	arc, warned := l.judge(t, jr)
	if jr.at == nil && jr.exit == "" && !warned {
		warned = l.rejectedUnplain(t, r)
	}
	l.stepped = false
	n := len(l.ds)
	var held *knownWorld // the world before a turn fired inside or into a parallel state (parWorld)
	if (r.in != nil || r.at != nil && l.ix.parallel) && l.world != nil {
		held = l.world.clone()
	}
	l.rest = l.after(t, r, jr, arc, warned)
	if !warned && len(l.ds) == n {
		l.rest = l.parAfter(t, r, arc, l.rest, held)
		if l.rest.at == nil && l.rest.in == nil && l.rest.exit == "" && r.at == nil && r.in == nil {
			if sr := l.parStartLeave(t, jr, arc); sr.at != nil || sr.in != nil {
				l.rest = sr
			}
		}
	}
	l.replayBeside(t, warned || len(l.ds) > l.turnDs)
	l.rest.from = diag.Clip(l.rest.from, maxFrom)
	l.noteJobs(l.stepped)
	if l.ix.background && !l.walked {
		l.jobs, l.jobsLost = nil, true // the turn may have started a job not followed
	}
	l.inbox.lost = l.inbox.lost || l.jobsLost
	l.inboxAfter(l.asserted(t, warned, n))
	l.par = parRest(t)
	l.noteTerminalRest(t)
}

// asserted judges t's inbox, world and state assertions where it rests
// now, when nothing before (warned, or a finding past the first n)
// found it failing; a failing one leaves the rest and world unknown. It
// reports whether the turn fails.
func (l *fixtureLint) asserted(t *Turn, warned bool, n int) bool {
	if warned {
		return true
	}
	// an inbox finding beside the turn's own says nothing more
	if len(l.ds) == n && (l.inboxExpected(t) || l.stateAsserted(t)) || l.worldExpected(t) {
		l.rest = rest{} // it fails here: the rest is not judged
		l.world.loseAll()
		return true
	}
	l.worldAsserted(t)
	return false
}

// rejectedUnplain is rejected's judgement of a turn fired where no plain
// state is certain: a parallel configuration (its aliases, leaves and
// guards), a start whose entries are all strays, or one in no state. It
// reports whether it warned.
func (l *fixtureLint) rejectedUnplain(t *Turn, r rest) bool {
	return l.parallelAlias(t, l.par) || l.parallelAliasIn(t, r) || l.parallelNotTaken(t, l.par) || l.parIn(t, r) || l.parLeavesNotTaken(t, r) || l.parLeavesGuard(t, r) || l.parGuard(t, r) ||
		l.strayStart(t) || l.nowhereStart(t)
}

// judge checks t fired where r rests (r.at nil: unknown), returning the
// on: name its intent reaches and whether it warned.
func (l *fixtureLint) judge(t *Turn, r rest) (string, bool) {
	ix, at := l.ix, r.at
	if t.ExpectError != nil {
		return "", l.takenExpectRejected(t, r) || l.parTakenExpectRejected(t, r) || l.acceptedExpectError(t, r) || l.untakenExpectOther(t, r)
	}
	if t.Intent == nil || t.Intent.Name == "" || ix.unfolded {
		return "", false
	}
	name := t.Intent.Name
	if !ix.intents[name] {
		return "", l.undeclared(t) // flow-unknown-intent's too
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
				t.Index, name, at.Path, r.from+ix.unknownNote(at), takenList(at), r.altTaken(), at.Path, engine.CodeNotAllowed)
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

// undeclared warns at a turn whose intent no state of the story declares
// or takes, in a story with no "*" arm: both engines reject it
// INTENT_NOT_ALLOWED_IN_STATE wherever it fires, on either path, at an
// unknown or terminal state too (conformance lint-undeclared-intent). It
// reports whether it warned.
func (l *fixtureLint) undeclared(t *Turn) bool {
	if l.ix.wildcard {
		return false // a "*" arm may take it
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is declared nowhere in the story and no state takes it (no on: %s arm, and no \"*\")%s: the turn is rejected %s on both engines, if the fixture gets this far; fire an intent the story declares, or expect the rejection (expect_error: {code: %s})",
		t.Index, t.Intent.Name, t.Intent.Name, l.ix.intentHint(t.Intent.Name), engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
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
