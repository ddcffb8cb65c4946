package flowtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// startLeaves are the leaves of p an initial_state root#leaf|leaf starts
// the fixture at, sorted by path, when that configuration is known: a
// leaf of some regions at least; two of one region, or one listed twice,
// are kept (par-start-two-leaves: an intent none of them takes is
// refused; no move from there is followed: regionMoved's oneRegionEach).
// The other entries may be
// empty (no entry) or strays: paths under no region of p, a region the
// story does not have (p.zz.b1) or a state outside p (idle.x). The rig
// keeps a stray in the state path, where it takes no intent, until an
// intent is taken, and a region named by no entry has no leaf: its
// intents are refused (conformance par-start-unknown-region,
// par-start-regions-named). strays reports whether there is one. nil
// where an entry is anything else (a leaf under a known region that is
// no state, start-under-known-parallel; a compound).
func (ix *storyIndex) startLeaves(p *story.State, initial string) (known []*story.State, strays bool) {
	root, _, ok := strings.Cut(initial, "#")
	if !ok || root != p.Path {
		return nil, false
	}
	for _, path := range leaves(initial) {
		if path == "" {
			continue
		}
		s := ix.byPath[path]
		if s == nil {
			if !ix.stray(p, path) {
				return nil, false
			}
			strays = true
			continue
		}
		reg := regionOf(p, s)
		if reg == nil || len(s.Children) > 0 || s.Parallel {
			return nil, false
		}
		known = append(known, s)
	}
	if len(known) == 0 {
		return nil, false
	}
	return slices.SortedFunc(slices.Values(known), byPath), strays
}

// stray reports whether path, no state of the story or one outside p, lies under no
// region of p: its longest known ancestor is p itself, a state outside
// p, or none (the engine's outsideLeaf, or an unknownLeaf under p).
func (ix *storyIndex) stray(p *story.State, path string) bool {
	if ix.states[path] {
		// a state outside p is an entry in no region as well
		// (conformance par-start-outside-state, par-start-outside-root-arcs F)
		s := ix.byPath[path]
		return s != nil && s != p && !within(s, p)
	}
	anc := ix.byPath[ix.knownAncestor(path)]
	return anc == nil || anc == p || !within(anc, p)
}

// startsBeside reports whether initial, root#leaf|leaf with root p, is
// a start the rig takes though it names no state of the story: known
// leaves of p beside strays (startLeaves).
func (ix *storyIndex) startsBeside(p *story.State, initial string) bool {
	known, strays := ix.startLeaves(p, initial)
	return known != nil && strays
}

// straysWhat says, for the unknown-state warning, what a start with
// strays does (startLeaves); "" for any other start.
func (ix *storyIndex) straysWhat(initial string) string {
	root, _, _ := strings.Cut(initial, "#")
	p := ix.byPath[root]
	if p == nil || !p.Parallel || ix.unfolded {
		return ""
	}
	if ix.underNone(initial) {
		return fmt.Sprintf("none of its entries is a state or lies under one: the machine starts with no leaf of %q and refuses every intent INTENT_NOT_ALLOWED_IN_STATE, its arcs too, as the existing engine does; name a leaf of each region", p.Path)
	}
	if ix.allStrays(p, initial) {
		return fmt.Sprintf("its entries all lie under no region of %q: the machine starts with no leaf of it, so an intent a state an entry's dotted prefix names takes (or an ancestor of one) fails GUARD_FAILED and any other is refused, as the existing engine does; if a region was renamed, name its leaf instead", p.Path)
	}
	known, strays := ix.startLeaves(p, initial)
	if !strays {
		return ""
	}
	paths := make([]string, len(known))
	for i, s := range known {
		paths[i] = s.Path
	}
	return fmt.Sprintf("its entries under no region of %q stay in the state path and take no intent until the machine takes one, which drops them; it rests at %s and takes their intents (a region named by no leaf takes none), as the existing engine does; if a region was renamed, name its leaf instead", p.Path, strings.Join(paths, ", "))
}

// strayStart warns at a fixture's first turn when its initial_state,
// root#entry|entry with a parallel root p, names strays only
// (startLeaves) and no known leaf, or only empty entries (p#, p#|:
// underNone): the machine has no leaf to take an
// intent: one the engine allows there (engine.Session.Available: the
// arcs of the states the entries' dotted prefixes name, and their
// ancestors') is refused GUARD_FAILED, any other
// INTENT_NOT_ALLOWED_IN_STATE (conformance par-start-unknown-region
// f031–f040, lint-par-start-stray d, e, par-start-outside-prefix alone_*,
// par-start-outside-root-arcs, par-start-entry-forms empty, bar). It reports whether it warned.
func (l *fixtureLint) strayStart(t *Turn) bool {
	fx, ix := l.fx, l.ix
	root, _, ok := strings.Cut(fx.InitialState, "#")
	p := ix.byPath[root]
	if !ok || p == nil || !p.Parallel || len(fx.Turns) == 0 || t != fx.Turns[0] || !ix.allStrays(p, fx.InitialState) && !ix.underNone(fx.InitialState) {
		return false
	}
	name := l.parIntent(t)
	if name == "" {
		return false
	}
	allowed, ok := ix.startAvailable(fx.InitialState)
	if !ok {
		return false
	}
	code, what := engine.CodeNotAllowed, "no state takes it there"
	if slices.Contains(allowed, name) {
		// an arc of a state a stray's dotted prefix names (top.idle.x:
		// top.idle, top) allows it, and no leaf takes it (conformance
		// par-start-outside-prefix alone_*, par-start-outside-root-arcs)
		code, what = engine.CodeGuardFailed, "a state an entry's dotted prefix names (or an ancestor of one) takes it, which allows it, but no leaf takes it"
		if a := ix.prefixArc(fx.InitialState, name); a != nil {
			what = fmt.Sprintf("the arc of %q for it has no leaf to be taken from", a.Path)
		}
	} else if !ix.takenAnywhere(name) {
		return false // taken nowhere: the unknown-intent checks' own
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is fired at %q, whose entries all lie under no region of %q: the machine starts with no leaf of it, and %s: the turn is rejected %s on both engines; name a leaf of each region in initial_state, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, fx.InitialState, p.Path, what, code, code)
	return true
}

// underNone reports whether no entry of initial is a state or has a
// dotted prefix naming one (p#, p#|, p#zz): the start allows nothing
// (conformance par-start-entry-forms).
func (ix *storyIndex) underNone(initial string) bool {
	for _, path := range leaves(initial) {
		if ix.states[path] || ix.knownAncestor(path) != "" {
			return false
		}
	}
	return true
}

// allStrays reports whether every entry of initial (root p) is a stray
// or empty, one at least a stray.
func (ix *storyIndex) allStrays(p *story.State, initial string) bool {
	n := 0
	for _, path := range leaves(initial) {
		if path == "" {
			continue
		}
		if !ix.stray(p, path) {
			return false
		}
		n++
	}
	return n > 0
}

// startAvailable are the intents the engine allows at a fixture's
// initial_state before any turn (engine.Session.Available on a session
// started there as the flow rig starts it); not ok when the story does
// not compile or the session cannot start there.
func (ix *storyIndex) startAvailable(initial string) ([]string, bool) {
	m := ix.compiledMachine()
	if m == nil {
		return nil, false
	}
	sess, err := engine.Start(context.Background(), m, engine.SessionOptions{StartState: initial, StartFlat: true, UnarmedStart: true, Clock: engine.NewVirtualClock(time.Time{})})
	if sess != nil {
		defer sess.Close()
	}
	if err != nil {
		return nil, false
	}
	return sess.Available(), true
}

// prefixArc is the state with arms for name that an entry of initial
// reaches: the state the entry names, or its deepest known dotted
// prefix, and their ancestors, the first entry's first; nil when none.
func (ix *storyIndex) prefixArc(initial, name string) *story.State {
	for _, path := range leaves(initial) {
		s := ix.byPath[path]
		if s == nil {
			s = ix.byPath[ix.knownAncestor(path)]
		}
		for ; s != nil; s = s.Parent {
			if s.HasOn(name) {
				return s
			}
		}
	}
	return nil
}

// takenAnywhere reports an intent some state of the story has arms for.
func (ix *storyIndex) takenAnywhere(name string) bool {
	for _, s := range ix.byPath {
		if s.HasOn(name) {
			return true
		}
	}
	return false
}
