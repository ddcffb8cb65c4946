package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// maxMayStates bounds the states mayRest follows for one turn: past it
// the turn is not judged.
const maxMayStates = 64

// mayRest is every state a turn whose intent reaches the on: name arc,
// fired at one of the states r may rest in, can end in without failing
// (story-runtime §1.5–§2.4), when the lint cannot tell which: each arm
// of the intent there, whatever its when: (none holding rejects the
// turn); each emit_intent with a literal name on the way, fired or not
// (pre-bind, or post-bind from the final state's own on_enter), followed
// through every arm of it; each call's on_error target, resolved against
// every state on the way (a redirect is entered flat). nil when some
// move cannot be followed: a templated target or emit, a parallel state,
// a compound with a templated initial:, a background job that may move
// the machine, an effect-level agent: (as stillEffect), a timeout: an
// advance_clock may fire, too many states.
func (l *fixtureLint) mayRest(t *Turn, r rest, arc string) []string {
	ix := l.ix
	if r.at == nil || arc == "" || ix.unfolded || ix.jobs || inParallel(r.at) {
		return nil
	}
	m := &mayWalk{ix: ix, seen: map[string]bool{}}
	for _, s := range append([]*story.State{r.at}, r.alt...) {
		if inParallel(s) {
			return nil
		}
		m.intent(s, arc)
	}
	// calls' on_error targets, against every state on the way; an arm's
	// own calls also against the state it fired at (they run before its move)
	for i := 0; i < len(m.calls) && !m.lost; i++ {
		for _, base := range slices.Clone(m.order) {
			m.redirect(base, m.calls[i])
		}
	}
	for _, c := range m.armCalls {
		m.redirect(c[0], c[1])
	}
	if m.lost || len(m.order) > maxMayStates {
		return nil
	}
	if t.HasAdvance && slices.ContainsFunc(m.order, m.timed) {
		return nil
	}
	return m.order
}

// mayWalk is mayRest's state: the states reached (in order), the calls
// with an on_error met on the way, and whether something was lost.
type mayWalk struct {
	ix    *storyIndex
	seen  map[string]bool
	order []string
	calls []string // on_error targets as written
	// armCalls: an arm's own on_error targets, with the state it fired at
	armCalls [][2]string
	lost     bool
	steps    int
	par      map[string][]*story.State // a parallel landing's path: the states entering it ran (lint_par_entry.go)
}

// intent follows every arm of arc at s (or the nearest ancestor with arms for it).
func (m *mayWalk) intent(s *story.State, arc string) {
	n, arms := armsOf(s, arc)
	for _, a := range arms {
		if m.lost {
			return
		}
		if a == nil {
			continue
		}
		m.steps++
		if m.steps > 4*maxMayStates || len(a.Emit()) > 0 {
			m.lost = true
			return
		}
		tt := strings.TrimSpace(a.Target)
		var to string
		switch {
		case (tt == "" || tt == ".") && n != s:
			m.lost = true // a stay on an ancestor's arm re-enters that ancestor (conformance ancestor-stay)
			return
		case tt == "" || tt == ".":
			to = s.Path // no move, no on_enter
		case story.IsTemplated(tt):
			m.lost = true
			return
		case strings.HasPrefix(tt, "@exit:"):
			to = "__exit__" + strings.TrimPrefix(tt, "@exit:")
		default:
			p, err := story.ResolvePath(n.Path, tt)
			if err != nil {
				m.lost = true
				return
			}
			to = m.landing(p)
		}
		if m.lost {
			return
		}
		m.armCalls = appendOnErrors(m.armCalls, s.Path, a.Effects)
		m.effects(a.Effects, to)
		m.reach(to)
	}
}

// landing is the leaf a move to p lands on (a compound's literal
// initial:, descended; a parallel state's path of leaves), or "" with
// m.lost.
func (m *mayWalk) landing(p string) string {
	d := m.ix.byPath[p]
	if d != nil && d.Parallel {
		return m.parallelLanding(d)
	}
	for d != nil && len(d.Children) > 0 {
		if d.Type != "compound" || d.Initial() == "" || story.IsTemplated(d.Initial()) {
			d = nil
			break
		}
		d = m.ix.byPath[d.Path+"."+d.Initial()]
	}
	if d == nil || m.ix.plainLeaf(d.Path) == nil {
		m.lost = true
		return ""
	}
	return d.Path
}

// reach adds p and follows what its on_enter and its ancestors' may do
// (a superset of what entering it runs, and of the post-bind pass).
func (m *mayWalk) reach(p string) {
	if m.lost || m.seen[p] {
		return
	}
	m.seen[p] = true
	m.order = append(m.order, p)
	if len(m.order) > maxMayStates {
		m.lost = true
		return
	}
	if m.par[p] != nil {
		return // every on_enter entering it ran only sets (parallelLanding)
	}
	for s := m.ix.byPath[p]; s != nil; s = s.Parent {
		m.effects(s.OnEnter, p)
	}
}

// effects follows effs, run while the machine is at p: each literal
// emit_intent through every arm it reaches at p; each on_error noted.
func (m *mayWalk) effects(effs []*story.Effect, p string) {
	for _, e := range effs {
		if e == nil || m.lost {
			continue
		}
		if e.Target() != "" || e.Agent() != "" || (e.Background() && len(e.OnComplete()) > 0 && !plainEffects(e.OnComplete())) {
			m.lost = true
			return
		}
		if oe := strings.TrimSpace(e.OnError()); oe != "" {
			m.calls = append(m.calls, oe)
		}
		if name := strings.TrimSpace(e.EmitIntent()); name != "" {
			if story.IsTemplated(name) || m.par[p] != nil {
				m.lost = true
				return
			}
			if s := m.ix.byPath[p]; s != nil {
				arc := name
				if a := m.ix.aliasOf(s, name); a != "" {
					arc = a
				}
				m.intent(s, arc)
			}
		}
		m.effects(e.Effects(), p)
	}
}

// redirect adds the state an on_error target tt, dispatched at base,
// moves the machine to (entered flat: its own on_enter alone).
func (m *mayWalk) redirect(base, tt string) {
	if m.par[base] != nil {
		m.lost = true // a call in a region: not followed
		return
	}
	if m.ix.byPath[base] == nil {
		return // an __exit__ state runs no call
	}
	if story.IsTemplated(tt) || strings.HasPrefix(tt, "@exit:") {
		m.lost = true
		return
	}
	// a "../" chain longer than base stays at the top level, as both
	// engines climb an on_error (conformance on-error-climb-above-top)
	p, _ := story.ClimbPath(base, tt)
	if m.ix.byPath[p] == nil || p == base {
		if !m.seen[base] { // names no state (it rests where it is) or moves nothing
			m.seen[base] = true
			m.order = append(m.order, base)
		}
		return
	}
	if m.seen[p] {
		return
	}
	if m.ix.plainLeaf(p) == nil {
		m.lost = true
		return
	}
	m.seen[p] = true
	m.order = append(m.order, p)
	m.effects(m.ix.byPath[p].OnEnter, p)
}

// mayWrongState warns at an expect_state naming a state none of may is.
func (l *fixtureLint) mayWrongState(t *Turn, r rest, may []string) bool {
	want := *t.ExpectState
	if want == "" || !l.ix.hasState(want) || slices.Contains(may, want) {
		return false
	}
	if _, ls, ok := strings.Cut(want, "#"); ok && !slices.IsSorted(strings.Split(ls, "|")) {
		return false // parallelOrder's
	}
	qs := make([]string, len(may))
	for i, p := range may {
		qs[i] = fmt.Sprintf("%q", p)
	}
	l.warn(t.valueAt("expect_state"), ruleWrongState, "turns[%d].expect_state: %q, but the turn's intent %q, fired at %q (where %s%s), can only end in %s (every arm of it there, whatever its when:, every emit_intent on the way, fired or not, and every call's on_error followed): the assertion fails on both engines; expect_state: one of them, or fix the arm, emit or target that should lead there",
		t.Index, want, t.Intent.Name, r.at.Path, r.from, orAt(r.alt, "or at %s, "+r.altWhy()), strings.Join(qs, " or "))
	return true
}

// mayRestAt is the rest after a turn that can end in any of may (nil:
// not known): the first, or one of the others.
func (l *fixtureLint) mayRestAt(t *Turn, may []string) rest {
	if er, ok := mayExit(t, may); ok {
		return er
	}
	var ss []*story.State
	for _, p := range may {
		s := l.ix.plainLeaf(p)
		if s == nil {
			return rest{} // an __exit__ state
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return rest{}
	}
	why := fmt.Sprintf("where turns[%d] %q may end", t.Index, t.Intent.Name)
	return rest{at: ss[0], alt: ss[1:], why: why, from: fmt.Sprintf("turns[%d] %q may end (every arm, emit and on_error followed)", t.Index, t.Intent.Name)}
}

// mayExit is the rest after t when every state it may end in is an
// exit's __exit__NAME: the fixture certainly left the story, through one
// of them (probed: docs-review's quit, taken at reviewed to @exit:done and
// at review_failed to @exit:abandoned, then quit again: refused
// INTENT_NOT_ALLOWED_IN_STATE at whichever exit it left by).
func mayExit(t *Turn, may []string) (rest, bool) {
	if len(may) == 0 {
		return rest{}, false
	}
	var names []string
	for _, p := range may {
		name, ok := strings.CutPrefix(p, "__exit__")
		if !ok {
			return rest{}, false
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	only := "only there"
	if len(names) > 1 {
		only = "only at an exit"
	}
	return rest{exit: names[0], exitAlt: names[1:], from: fmt.Sprintf("turns[%d] %q may end %s (every arm, emit and on_error followed)", t.Index, t.Intent.Name, only)}, true
}

// appendOnErrors adds to cs each on_error target in effs (nested
// effects too), paired with at.
func appendOnErrors(cs [][2]string, at string, effs []*story.Effect) [][2]string {
	for _, e := range effs {
		if e == nil {
			continue
		}
		if oe := strings.TrimSpace(e.OnError()); oe != "" {
			cs = append(cs, [2]string{at, oe})
		}
		cs = appendOnErrors(cs, at, e.Effects())
	}
	return cs
}
