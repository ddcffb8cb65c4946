package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// armTook and armLed name, for messages, the arm a turn certainly
// takes at s: its first, unguarded, or the first whose when: holds on
// what the fixture certainly has.
func armTook(s *story.State, arc string, a *story.Transition) string {
	if _, first := firstArmOf(s, arc); a == nil || first == a && (a.When == "" || a.Default()) {
		return "an unguarded first arm"
	}
	return "the " + armWhen(a)
}

func armLed(s *story.State, arc string, a *story.Transition) string {
	if _, first := firstArmOf(s, arc); a == nil || first == a && (a.When == "" || a.Default()) {
		return "its first arm, unguarded,"
	}
	return "its " + armWhen(a) + ","
}

func armWhen(a *story.Transition) string {
	if a.When == "" || a.Default() {
		return "unguarded arm after guards false on what the fixture certainly has"
	}
	return fmt.Sprintf("arm whose when: %s is true on what the fixture certainly has", a.When)
}

// orAt is format with the quoted paths of ss joined by " or ", after a
// comma; "" when ss is empty.
func orAt(ss []*story.State, format string) string {
	if len(ss) == 0 {
		return ""
	}
	qs := make([]string, len(ss))
	for i, s := range ss {
		qs[i] = fmt.Sprintf("%q", s.Path)
	}
	return ", " + fmt.Sprintf(format, strings.Join(qs, " or "))
}

// stepAll is step from every state r may rest in, merged (r.at's first),
// or nil when one of them is unknown or resolves the intent's bare
// spelling to another arc than r.at does.
func (ix *storyIndex) stepAll(r rest, name, arc string, still func(*story.Effect) bool, guard func(string) (bool, bool), tx targetText) ([]*story.State, *story.Transition) {
	out, arm := ix.step(r.at, arc, still, guard, tx)
	for _, s := range r.alt {
		if out == nil || ix.aliasOf(s, name) != ix.aliasOf(r.at, name) {
			return nil, nil
		}
		more, _ := ix.step(s, arc, still, guard, tx)
		if more == nil {
			return nil, nil
		}
		for _, m := range more {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	if len(r.alt) > 0 {
		arm = nil // arms taken on other paths: no one arm's effects to apply
	}
	return out, arm
}

// step is where an intent whose arm list at s (or the nearest ancestor
// with one) starts with an unguarded arm certainly moves the machine: the
// leaf it lands on first, then each state a failing call's on_error may
// redirect it to instead (lint_redirect.go); nil when that is not
// certain. A templated target is followed where its render is certain
// (renderedLanding). The arm's effects, the on_enter of s and of the states it
// enters must all be still (stillEffect: no call, emit or job that may
// move it) or calls that may only redirect, its target literal, landing
// on a leaf outside any parallel state.
func (ix *storyIndex) step(s *story.State, arc string, still func(*story.Effect) bool, guard func(string) (bool, bool), tx targetText) ([]*story.State, *story.Transition) {
	if !quietEntry(s, orRedirect(still)) {
		return nil, nil // a pending emit of its on_enter may be decided again (conformance landing-effects-undone)
	}
	n, a := chosenArm(s, arc, guard)
	if a == nil || (len(a.Emit()) > 0 && inParallel(n)) || !allEffects(a.Effects, orRedirect(still)) {
		return nil, nil
	}
	tt := strings.TrimSpace(a.Target)
	var to []*story.State
	switch {
	case tt == "" || tt == ".":
		if ix.isUnknown(s) {
			return nil, nil // a stay on a path the story does not hold: not followed
		}
		if n != s {
			// the owning ancestor's stay (lint_ancestor_stay.go)
			to = ix.landing(ix.stayLeaf(n, s), still)
			break
		}
		if alt, ok := ix.entryRedirects(s, still, nil); ok {
			to = append([]*story.State{s}, alt...)
		}
	case strings.HasPrefix(tt, "@exit:"):
		return nil, nil
	case story.IsTemplated(tt):
		to = ix.renderedLanding(n, tt, a, still, tx) // lint_step_template.go
	default:
		p, err := story.ResolvePath(n.Path, tt)
		if err != nil {
			return nil, nil
		}
		to = ix.landingRendered(ix.byPath[p], still, tx)
	}
	if to == nil {
		return nil, nil
	}
	// the arm's own calls are dispatched at the state it lands on
	alt, ok := ix.redirects(a.Effects, to[0], still, to[1:], 0)
	if !ok {
		return nil, nil
	}
	return append([]*story.State{to[0]}, alt...), a
}

// inParallel reports s or an ancestor declared parallel: an arm's emit:
// list is delivered to the other regions only there, and ignored
// elsewhere (story-runtime §3; probed: lobby's go [{target: hall,
// emit: [back]}] rests on hall).
func inParallel(s *story.State) bool {
	for ; s != nil; s = s.Parent {
		if s.Parallel {
			return true
		}
	}
	return false
}

// chosenArm is the arm the engines take for arc at s (story-runtime
// §1.5): the first, of the arms armsOf finds, that is unguarded
// (or default: true) or whose when: guard says is certainly true, with
// every arm before it certainly false; nil when that is not certain.
func chosenArm(s *story.State, arc string, guard func(string) (bool, bool)) (*story.State, *story.Transition) {
	n, arms := armsOf(s, arc)
	a, _ := certainArm(arms, guard)
	return n, a
}

// firstArmOf is the first arm the engines try for arc at s (armsOf's
// first), and the state that has it; a nil arm when there is none.
func firstArmOf(s *story.State, arc string) (*story.State, *story.Transition) {
	n, arms := armsOf(s, arc)
	if len(arms) == 0 {
		return n, nil
	}
	return n, arms[0]
}

// armsOf are the arms the engines try, in order, for arc at s: those of
// the nearest of s and its ancestors with arms for it (else that state's
// "*" arms), and that state.
func armsOf(s *story.State, arc string) (*story.State, []*story.Transition) {
	n := s
	for n != nil && !n.HasOn(arc) && !n.HasOn("*") {
		n = n.Parent
	}
	if n == nil {
		return nil, nil
	}
	if arms := n.Arms(arc); len(arms) > 0 {
		return n, arms
	}
	return n, n.Arms("*")
}

// landing is the leaf a move to d certainly rests on (descending the
// literal initial: of type: compound states), then the states the on_error of a call on the way
// may redirect it to; nil: a parallel state, a templated initial:, or an
// on_enter on the way that may move it otherwise.
func (ix *storyIndex) landing(d *story.State, still func(*story.Effect) bool) []*story.State {
	return ix.landingRendered(d, still, targetText{})
}

// landingRendered is landing for a move whose templated initial:s
// render on what tx certainly renders (initialLeaf): a user turn's.
func (ix *storyIndex) landingRendered(d *story.State, still func(*story.Effect) bool, tx targetText) []*story.State {
	for d != nil && len(d.Children) > 0 {
		if d.Type != "compound" || d.Initial() == "" {
			return nil // a parallel state, or one the engines never descend into (rule initial)
		}
		if story.IsTemplated(d.Initial()) {
			d = ix.initialLeaf(d, tx) // lint_step_template.go
			continue
		}
		d = ix.byPath[d.Path+"."+d.Initial()]
	}
	if d == nil || ix.plainLeaf(d.Path) == nil && !ix.isUnknown(d) {
		return nil
	}
	alt, ok := ix.entryRedirects(d, still, nil)
	if !ok {
		return nil
	}
	return append([]*story.State{d}, alt...)
}

// regionLeaf is the state at path when it is a leaf inside a parallel
// state, else nil.
func (ix *storyIndex) regionLeaf(path string) *story.State {
	s := ix.byPath[path]
	if s == nil || strings.Contains(path, "#") || len(s.Children) > 0 || s.Parallel || !inParallel(s) {
		return nil
	}
	return s
}

// plainLeaf is the state at path when it is a leaf outside any parallel
// state, else nil.
func (ix *storyIndex) plainLeaf(path string) *story.State {
	s := ix.byPath[path]
	if s == nil || strings.Contains(path, "#") || len(s.Children) > 0 || s.Parallel {
		return nil
	}
	for a := s.Parent; a != nil; a = a.Parent {
		if a.Parallel {
			return nil
		}
	}
	return s
}

// quietEntry reports whether every on_enter effect of s and its
// ancestors is ok.
func quietEntry(s *story.State, ok func(*story.Effect) bool) bool {
	for ; s != nil; s = s.Parent {
		if !allEffects(s.OnEnter, ok) {
			return false
		}
	}
	return true
}
