package flowtest

import (
	"slices"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// An intent fired at a parallel configuration is looked up from the
// leaves the engines read back from its encoding, not from every leaf it
// prints: one per region, the later of two (engine.Machine.FiredLeaves).
// After a cross-region move has left two leaves of one region
// (p#p.rb.b1|p.rb.b2, conformance lint-par-cross) only b2 is tried: b1's
// intent is allowed but refused GUARD_FAILED, and b2's move lands the
// region alone (p#p.rb.b3), where the other region's intents are refused.

// compiledMachine is the story compiled (late handlers allowed), once,
// with its views (ix.views) as the rig's load gives them; nil when it
// does not compile.
func (ix *storyIndex) compiledMachine() *engine.Machine {
	if !ix.compiled {
		ix.compiled = true
		ld := &compose.Loaded{Story: ix.source}
		if ld.Compile(engine.CompileOptions{LateHandlers: true}); ld.Machine != nil {
			ix.machine = ld.Machine
			if ld.Views != nil {
				ix.views = ld.Views
			}
		}
	}
	return ix.machine
}

// firedLeaves are the leaves of r's configuration an intent fired there
// is looked up from, in order (r.leaves themselves when they lie in
// different regions); not ok when that is not certain: a configuration
// spelled as no sorted path, a story that does not compile, a leaf the
// compiled machine names that the lint's index does not hold.
func (l *fixtureLint) firedLeaves(r rest) ([]*story.State, bool) {
	if oneRegionEach(r.in, r.leaves) {
		return r.leaves, true
	}
	printed := parPath(r.in, r.leaves)
	if r.spelling != "" && r.spelling != printed {
		return nil, false // a start's leaves in the order listed: not followed
	}
	m := l.ix.compiledMachine()
	if m == nil {
		return nil, false
	}
	paths, ok := m.FiredLeaves(printed)
	if !ok || len(paths) == 0 {
		return nil, false
	}
	out := make([]*story.State, 0, len(paths))
	for _, p := range paths {
		s := l.ix.byPath[p]
		if s == nil {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// firedFrom is r read back for a move from it: its leaves the fired
// ones, printed as r was.
func (l *fixtureLint) firedFrom(r rest) (rest, bool) {
	fired, ok := l.firedLeaves(r)
	if !ok {
		return rest{}, false
	}
	if !slices.Equal(fired, r.leaves) {
		r.spelling = r.printed()
		r.leaves = fired
	}
	return r, true
}

// parFiredNone warns at a turn fired at r's configuration whose intent a
// leaf it prints takes (it is allowed) but none of the leaves read back
// from it, fired, nor a state above one: both engines reject it
// GUARD_FAILED (conformance lint-par-cross c: gb1 beside b2). It
// reports whether it warned.
func (l *fixtureLint) parFiredNone(t *Turn, r rest, name string, fired []*story.State) bool {
	if slices.Equal(fired, r.leaves) || !l.ix.leavesTake(r.leaves, name) || l.ix.leavesTake(fired, name) {
		return false
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q, fired at %q, the configuration of the parallel state %q the fixture certainly rests in (where %s), is allowed there, but the engines look it up from the leaves they read back from that path, one per region, the later of two (%s), and none of them, nor a state above one, takes it (they take: %s): the turn is rejected %s on both engines, if the fixture gets this far; fire an intent one of them takes, fix the turns before it, or expect the rejection (expect_error: {code: %s})",
		t.Index, name, r.printed(), r.in.Path, r.from, parPath(r.in, fired), leavesTaken(fired), engine.CodeGuardFailed, engine.CodeGuardFailed)
	return true
}
