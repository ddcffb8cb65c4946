package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// rejected warns at a turn whose intent both engines certainly reject
// (story-runtime §1.4; each probed with the existing engine, where the
// fixture fails with "unexpected validation error: <code>"):
//
//   - the intent is declared but no state of the story takes it (no on:
//     arm anywhere, no "*"): INTENT_NOT_ALLOWED_IN_STATE wherever it fires;
//   - the previous turn's expect_state names a state that, with its
//     ancestors, takes neither the intent nor "*": either that assertion
//     fails or this turn is refused INTENT_NOT_ALLOWED_IN_STATE (so is the
//     first turn of a legacy-path fixture at its initial_state leaf);
//   - a required slot a legacy-path turn leaves out (absent or null):
//     MISSING_SLOTS (on the orchestrator path the turn is a clarification,
//     which fails nothing: flow-format §3.2);
//   - a slot value outside the slot's values: (as fmt prints both):
//     INVALID_SLOT_VALUE.
//
// A turn that expects the rejection (expect_error) is not judged; nor is
// one whose machine may have moved since the state it names (a turn that
// advances the clock, a story with a background job's on_complete), or a
// slot a {{ }} template fills. A slot is judged against every declaration
// of its intent (the global one and each state's own) and reported only
// when all of them refuse it.
func (l *fixtureLint) rejected(t *Turn, prev *Turn) {
	ix := l.ix
	if t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded {
		return
	}
	name := t.Intent.Name
	if !ix.intents[name] {
		return // flow-unknown-intent's
	}
	arcs := slices.Compact(slices.Sorted(slices.Values(ix.aliases[name])))
	if !ix.wildcard && !ix.taken[name] && len(arcs) == 0 {
		l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is declared, but no state of the story takes it (no on: %s arm, and no \"*\"): the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines; add an on: %s arm to the state that should take it, or expect the rejection (expect_error: {code: %s})",
			t.Index, name, name, name, engine.CodeNotAllowed)
		return
	}
	arc := name // the on: name the turn reaches: a bare child spelling stands for its arc
	if len(arcs) == 1 && !ix.taken[name] {
		arc = arcs[0]
	}
	if at, from := l.restingAt(t, prev); at != nil {
		if a := ix.aliasOf(at, name); a != "" {
			arc = a
		}
		if !takes(at, arc) {
			l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is not taken at %q, where %s rests (it and its ancestors take: %s): the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines, if that assertion holds at all; fire an intent %q takes, fix %s, or expect the rejection (expect_error: {code: %s})",
				t.Index, name, at.Path, from, takenList(at), at.Path, from, engine.CodeNotAllowed)
			return
		}
	} else if arc == name && len(arcs) > 0 && !ix.taken[name] {
		return // a bare spelling of several children's intents: which one is unknown
	}
	l.slots(t, ix.decls[arc])
	l.slotTypes(t, ix.decls[arc])
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

// restingAt is the state the machine certainly rests in when t fires
// (nil when unknown), and the fixture key that says so.
func (l *fixtureLint) restingAt(t *Turn, prev *Turn) (*story.State, string) {
	ix := l.ix
	if t.HasAdvance || ix.jobs {
		return nil, ""
	}
	var path, from string
	switch {
	case prev == nil && !l.fx.Orchestrated():
		path, from = l.fx.InitialState, "initial_state"
	case prev != nil && prev.ExpectError == nil && prev.ExpectState != nil:
		path, from = *prev.ExpectState, fmt.Sprintf("turns[%d].expect_state", prev.Index)
	default:
		return nil, ""
	}
	s := ix.byPath[path]
	if s == nil || strings.Contains(path, "#") || len(s.Children) > 0 {
		return nil, "" // a parallel configuration or a compound: not judged
	}
	for a := s.Parent; a != nil; a = a.Parent {
		if a.Parallel {
			return nil, ""
		}
	}
	return s, from
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
	var names []string
	for ; s != nil; s = s.Parent {
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
