package engine

import (
	"maps"
	"slices"
	"strings"
)

// Observer is told each part of the story a run reaches, by kind and by
// the position the author wrote it at: kitsoki test --cover counts these
// (pkg/coverage). Reached is called on the session's goroutine while a
// turn runs; an Observer shared by several sessions must be safe for
// concurrent use. A nil Options.Observer costs nothing.
//
// Positions are the author's: an imported child's parts are in the child's
// files, a state a phase generated is on its template's lines (so several
// states may share one position), and an import's wrapper state is its
// imports: entry. What ran counts even when its turn then failed.
type Observer interface {
	Reached(kind ReachKind, at Pos)
}

// ReachKind is what an [Observer] is told was reached.
type ReachKind uint8

// The kinds of [Reachable] parts of a machine.
const (
	// ReachState: a state was entered, or a session started in it (its
	// key's position).
	ReachState ReachKind = iota + 1
	// ReachArc: an on: arm was chosen (the arm item's position; a guarded
	// arm and its fallback are two arcs).
	ReachArc
	// ReachTimeout: a state's timeout fired (the timeout: key).
	ReachTimeout
	// ReachOnError: a failed call's on_error redirect was taken (the
	// on_error: value).
	ReachOnError
	// ReachOnComplete: a background job's on_complete target was taken
	// (the entry's target: value).
	ReachOnComplete
	// ReachExit: the run left through one of the story's exits: (the
	// exit's key), or an arm or on_complete target left an imported
	// child through one of its importer's exits: mappings (the mapping's
	// key).
	ReachExit
	// ReachEffect: an effect ran (its when: passed; an invoke was queued;
	// an emit_intent was decided). The effect item's position.
	ReachEffect
)

var reachNames = [...]string{ReachState: "state", ReachArc: "arc", ReachTimeout: "timeout", ReachOnError: "on_error",
	ReachOnComplete: "on_complete", ReachExit: "exit", ReachEffect: "effect"}

// String is the kind's name: state, arc, timeout, on_error, on_complete,
// exit or effect.
func (k ReachKind) String() string {
	if int(k) < len(reachNames) && reachNames[k] != "" {
		return reachNames[k]
	}
	return "unknown"
}

// ParseReachKind is the kind String names; false for any other name.
func ParseReachKind(s string) (ReachKind, bool) {
	k := slices.Index(reachNames[:], s)
	if s == "" || k < 0 {
		return 0, false
	}
	return ReachKind(k), true
}

// Reachable is one part of a machine an [Observer] may be told about.
type Reachable struct {
	Kind ReachKind
	Pos  Pos
	// State is the path of the state that declares the part (for a state,
	// its own path; "" for an exit).
	State string
	// Label says what the part is, for a human: the state path, the
	// intent and target of an arc, an effect's verb, an exit's name.
	Label string
}

// Reachables lists every part of the machine an Observer can be told
// about, in declaration order: each state, then its timeout, on_enter
// effects and arcs (each arc followed by its effects). Parts without a
// position and the fold's own effects (an import wrapper's world resets)
// are left out. Several entries may share a position (phases).
func (m *Machine) Reachables() []Reachable {
	var out []Reachable
	add := func(k ReachKind, p Pos, state, label string) {
		if p.Line > 0 {
			out = append(out, Reachable{Kind: k, Pos: p, State: state, Label: label})
		}
	}
	var effects func(list []*Effect, state string, exits []exitMark)
	effects = func(list []*Effect, state string, exits []exitMark) {
		for _, e := range list {
			if (e.Kind != kindNone || e.Emit != nil) && !exitSet(e, exits) {
				add(ReachEffect, e.Pos, state, e.verb())
			}
			if e.OnError != "" {
				add(ReachOnError, e.onErrorPos, state, "→ "+e.OnError)
			}
			var via []exitMark
			for _, c := range e.OnComplete {
				via = append(via, c.exits...)
				if c.Target != nil {
					add(ReachOnComplete, c.targetPos, state, "→ "+c.Target.src)
					for _, x := range c.exits {
						add(ReachExit, x.pos, state, x.name)
					}
				}
			}
			effects(e.OnComplete, state, via)
			effects(e.Inline, state, nil)
		}
	}
	for _, s := range m.Order {
		add(ReachState, s.Pos, s.Path, s.Path)
		if s.Timeout != nil && s.Timeout.Target != nil {
			add(ReachTimeout, s.Timeout.Pos, s.Path, "→ "+s.Timeout.Target.src)
		}
		if !m.isWrapper(s) {
			effects(s.OnEnter, s.Path, nil)
		}
		for _, intent := range slices.Sorted(maps.Keys(s.On)) {
			for _, t := range s.On[intent] {
				to := "."
				if t.Target != nil && strings.TrimSpace(t.Target.src) != "" {
					to = t.Target.src
				}
				add(ReachArc, t.Pos, s.Path, "on "+intent+" → "+to)
				for _, x := range t.exits {
					add(ReachExit, x.pos, s.Path, x.name)
				}
				effects(t.Effects, s.Path, t.exits)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.exitPos)) {
		add(ReachExit, m.exitPos[name], "", name)
	}
	return out
}

// exitSet reports whether e is the set: of an exit mapping the fold put
// among its site's effects (counted as the exit, not as an effect).
func exitSet(e *Effect, exits []exitMark) bool {
	return e.Kind == kindSet && slices.ContainsFunc(exits, func(x exitMark) bool { return x.pos == e.Pos })
}

// isWrapper reports whether s is the state the fold made for an import
// alias (its on_enter is the fold's world resets).
func (m *Machine) isWrapper(s *State) bool {
	if m.Folded == nil {
		return false
	}
	si := m.Folded.Info(s.Path)
	return si != nil && si.Wrapper
}

// verb names an effect by what it does.
func (e *Effect) verb() string {
	switch e.Kind {
	case kindSet:
		return "set"
	case kindIncrement:
		return "increment"
	case kindSay:
		return "say"
	case kindInvoke:
		if e.Background {
			return "invoke " + e.Invoke + " (background)"
		}
		return "invoke " + e.Invoke
	}
	return "emit_intent"
}

// reach tells the observer, if any, that the part at p was reached.
func (r *runner) reach(k ReachKind, p Pos) {
	if o := r.so.Observer; o != nil && p.Line > 0 {
		o.Reached(k, p)
	}
}

// reachArm tells the observer an arm was chosen, with the imports: exit
// mappings its target goes through.
func (r *runner) reachArm(a *Transition) {
	if r.so.Observer == nil {
		return
	}
	r.reach(ReachArc, a.Pos)
	for _, x := range a.exits {
		r.reach(ReachExit, x.pos)
	}
}

// reachPlaced tells the observer about the states a session was placed in
// without entering them (a fixture's initial_state): the leaf or every
// region's leaf, and their ancestors.
func (r *runner) reachPlaced() {
	if r.so.Observer == nil {
		return
	}
	seen := map[*State]bool{}
	for _, l := range r.leaves() {
		for s := l; s != nil && !seen[s]; s = s.Parent {
			seen[s] = true
		}
	}
	for _, s := range r.m.Order {
		if seen[s] {
			r.reach(ReachState, s.Pos)
		}
	}
}
