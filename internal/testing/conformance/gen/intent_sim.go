package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// intentSim predicts where an intent fixture rests after each turn, so
// that most turns send an intent the state takes and most expect_state
// assertions hold on both engines. It follows unguarded arms and the
// slot checks (missing required slots, values:); a guarded arm, a stay
// handled by an ancestor, a parallel state or a slot value it cannot
// print as fmt does loses it, and from then on it predicts nothing.
type intentSim struct {
	is   *istory
	cur  string // a leaf path, or "p" for the parallel state
	ra   string // in p: region ra's leaf
	rb   string // in p: region rb's leaf
	lost bool
	orch bool
}

// state is the state as expect_state names it.
func (s *intentSim) state() string {
	if s.cur == "p" {
		return "p#" + s.ra + "|" + s.rb
	}
	return s.cur
}

// enter lands on target t (absolute). A region's leaf targeted from
// outside the parallel state is that leaf alone, not encoded, on both
// engines.
func (s *intentSim) enter(t string) {
	switch {
	case t == "c":
		s.cur = "c.c1"
	case t == "p":
		s.cur, s.ra, s.rb = "p", "p.ra.a1", "p.rb.b1"
	default:
		s.cur = t
	}
}

// chain is the current state and its ancestors, innermost first; in the
// parallel state, every active leaf's (its initial configuration).
func (s *intentSim) chain() []string {
	if s.cur == "p" {
		return []string{s.ra, s.rb, "p"}
	}
	var out []string
	for p := s.cur; p != ""; {
		out = append(out, p)
		i := strings.LastIndex(p, ".")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return out
}

// names are the intents the state (or, lost, any state) handles.
func (s *intentSim) names() []string {
	var out []string
	for path, on := range s.is.on {
		if !s.lost && !slices.Contains(s.chain(), path) {
			continue
		}
		for in := range on {
			if in != "*" && !slices.Contains(out, in) {
				out = append(out, in)
			}
		}
	}
	slices.Sort(out)
	return out
}

// decl is the declaration the engine finds for intent in the current
// state: a state-local one on the chain, else the global one.
func (s *intentSim) decl(intent string) (iintent, bool) {
	for _, p := range s.chain() {
		for _, in := range s.is.local[p] {
			if in.name == intent {
				return in, true
			}
		}
	}
	for _, in := range s.is.intents {
		if in.name == intent {
			return in, true
		}
	}
	return iintent{}, false
}

// turn advances the prediction over one intent turn and returns the
// code it is rejected with ("" when taken, "?" when it cannot tell; a
// missing slot is a clarification on the orchestrator path, no
// rejection).
func (s *intentSim) turn(intent string, slots m, hasSlots bool) string {
	if s.lost {
		return "?"
	}
	var arms []any
	owner := ""
	walks := [][]string{s.chain()}
	if s.cur == "p" {
		// regions in order, each from its leaf up through the root
		walks = [][]string{{s.ra, "p"}, {s.rb, "p"}}
	}
	region := ""
	for _, walk := range walks {
		for _, p := range walk {
			a, ok := s.is.on[p][intent]
			if !ok {
				a, ok = s.is.on[p]["*"]
			}
			if ok {
				arms, owner, region = a.([]any), p, walk[0]
				break
			}
		}
		if arms != nil {
			break
		}
	}
	if arms == nil {
		return "INTENT_NOT_ALLOWED_IN_STATE"
	}
	if d, ok := s.decl(intent); ok {
		switch code := s.slotsPass(d, slots); code {
		case "":
		case "?":
			s.lost = true
			return code
		default:
			if code == "MISSING_SLOTS" && s.orch {
				return ""
			}
			return code
		}
	}
	d, _ := s.decl(intent)
	bag := s.bag(d, slots, hasSlots)
	var arm m
	for _, a := range arms {
		a := a.(m)
		w, guarded := a["when"].(string)
		if !guarded || a["default"] == true {
			arm = a
			break
		}
		ok, known := evalSlotGuard(w, bag, hasSlots)
		if !known {
			s.lost = true
			return "?"
		}
		if ok {
			arm = a
			break
		}
	}
	if arm == nil {
		if s.cur == "p" {
			s.lost = true // the next region may take it
			return "?"
		}
		return "GUARD_FAILED"
	}
	for _, e := range asList(arm["effects"]) {
		if e.(m)["emit_intent"] != nil {
			s.lost = true // the hop may move on
			return ""
		}
	}
	t, _ := arm["target"].(string)
	switch {
	case t == "." && owner != s.cur && owner != region:
		s.lost = true
		return "?"
	case t == ".":
	case s.cur == "p" && (t == "p" || strings.HasPrefix(t, "p.")):
		// inside the parallel state: only the winning region's leaf
		// moves, and a root's arm or a cross-region target is odd
		// (story-runtime §3.4)
		if owner == "p" || t == "p" || !strings.HasPrefix(t, region[:len("p.ra")]) {
			s.lost = true
			return "?"
		}
		if region == s.ra {
			s.ra = t
		} else {
			s.rb = t
		}
	case t == "kid":
		s.lost = true // inside the child
	default:
		s.enter(t)
	}
	return ""
}

// slotsPass runs upstream's slot checks (story-runtime §1.4,
// conformance intent-slot-defaults) as far as it can print the values:
// the code they reject with, "" or "?".
func (s *intentSim) slotsPass(d iintent, slots m) string {
	missing := false
	for _, sl := range d.slots {
		v, ok := slots[sl.name]
		null := ok && isNull(v)
		if sl.required && (!ok || null) {
			missing = true
			continue
		}
		if !ok {
			if sl.def == nil {
				continue
			}
			v = sl.def
		}
		if len(sl.values) == 0 {
			continue
		}
		txt, known := fmtText(v, s.orch)
		if !known {
			return "?"
		}
		in := false
		for _, x := range sl.values {
			xt, _ := fmtText(x, false)
			in = in || xt == txt
		}
		if !in {
			return "INVALID_SLOT_VALUE"
		}
	}
	if missing {
		return "MISSING_SLOTS"
	}
	return ""
}

func isNull(v any) bool {
	if sc, ok := v.(scalar); ok && !sc.quoted {
		return sc.text == "null" || sc.text == "~"
	}
	return v == nil
}

// fmtText is a value as Go's %v prints it after YAML and the runner
// read it; false when it cannot tell (a template the orchestrator path
// renders, a float whose printing it does not model).
func fmtText(v any, orch bool) (string, bool) {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, "{{") && orch {
			return "", false
		}
		return x, true
	case scalar:
		if x.quoted {
			return x.text, true
		}
		switch x.text {
		case "null", "~":
			return "<nil>", true
		case "true", "false":
			return x.text, true
		}
		if i, err := strconv.ParseInt(x.text, 0, 64); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if f, err := strconv.ParseFloat(x.text, 64); err == nil && !math.IsInf(f, 0) && f == math.Trunc(f) && math.Abs(f) < 1e15 && !strings.HasPrefix(x.text, "-0") {
			return strconv.FormatInt(int64(f), 10), true
		}
		if x.text == "2.5" || x.text == "1.5" {
			return x.text, true
		}
		return "", false
	case []any, m:
		return "", false
	}
	return fmt.Sprint(v), true
}

// stateArms collects each state's on: map by path.
func stateArms(states m) map[string]m {
	out := map[string]m{}
	eachState("", states, func(path string, st m) {
		if on, ok := st["on"].(m); ok {
			out[path] = on
		}
	})
	return out
}

// bag is the slots the arms see: as sent, with the defaults of absent
// optional slots written in (none when the call has no slot map).
func (s *intentSim) bag(d iintent, slots m, hasSlots bool) m {
	out := m{}
	for k, v := range slots {
		out[k] = v
	}
	if !hasSlots {
		return out
	}
	for _, sl := range d.slots {
		if _, ok := out[sl.name]; !ok && sl.def != nil && !sl.required {
			out[sl.name] = sl.def
		}
	}
	return out
}

// guardVal is a slot value as expr compares it: nil, a string, a
// float64 or a bool; false when unknown (a list, a map, a template).
func guardVal(v any, present, orch bool) (any, bool) {
	if !present {
		return nil, true
	}
	switch x := v.(type) {
	case string:
		if strings.Contains(x, "{{") && orch {
			return nil, false
		}
		return x, true
	case scalar:
		if x.quoted {
			return x.text, true
		}
		switch x.text {
		case "null", "~":
			return nil, true
		case "true":
			return true, true
		case "false":
			return false, true
		}
		if i, err := strconv.ParseInt(x.text, 0, 64); err == nil {
			return float64(i), true
		}
		if f, err := strconv.ParseFloat(x.text, 64); err == nil && x.text != "99999999999999999999" {
			return f, true
		}
		return nil, false
	}
	return nil, false
}

// evalSlotGuard evaluates the slot guards intent.go draws; false when
// it cannot (a world guard, an unknown value).
func evalSlotGuard(w string, bag m, hasSlots bool) (bool, bool) {
	if w == "'a' in slots" {
		_, ok := bag["a"]
		return ok, hasSlots || len(bag) > 0
	}
	if strings.HasPrefix(w, "world.") {
		return false, false
	}
	lhs, rhs, eq := strings.Cut(w, " == ")
	if !eq {
		lhs, rhs, _ = strings.Cut(w, " != ")
	}
	get := func(e string) (any, bool) {
		switch {
		case strings.HasPrefix(e, "slots."):
			v, ok := bag[strings.TrimPrefix(e, "slots.")]
			return guardVal(v, ok, true)
		case e == "nil":
			return nil, true
		case e == "true":
			return true, true
		case strings.HasPrefix(e, "'"):
			return strings.Trim(e, "'"), true
		}
		f, err := strconv.ParseFloat(e, 64)
		return f, err == nil
	}
	a, ok1 := get(lhs)
	b, ok2 := get(rhs)
	if !ok1 || !ok2 {
		return false, false
	}
	same := a == b
	if eq {
		return same, true
	}
	return !same, true
}
