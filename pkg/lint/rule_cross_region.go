package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleCrossRegion = &Rule{ID: "cross-region", Severity: diag.Warning, LintOnly: true,
	Summary: "an arm inside a parallel state targets another region's state: the target replaces the firing region's leaf (two leaves of one region, none of the other)",
	Example: "p: {type: parallel, states: {ra: {states: {a1: {on: {x: [{target: p.rb.b2}]}}}}, rb: ...}}"}

// checkCrossRegion warns at an arm inside a parallel state whose literal
// target lies in another region of it (conformance par-cross).
func checkCrossRegion(c *checker) {
	byPath := map[string]*story.State{}
	for _, s := range c.states() {
		byPath[s.Path] = s
	}
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		dst := byPath[t.Target]
		if dst == nil {
			return
		}
		for p := dst.Parent; p != nil; p = p.Parent {
			if !p.Parallel {
				continue
			}
			dreg, sreg := regionUnder(p, dst), regionUnder(p, s)
			// the root's own arm, or an ancestor's, fires from the first
			// region (conformance par-above-root-handler)
			fromFirst := s == p || sreg == nil && regionUnder(s, p) != nil
			if !fromFirst && (sreg == nil || sreg == dreg) {
				continue // outside p, or in the target's own region
			}
			if fromFirst && dreg == firstRegion(p) {
				return // an arm firing from the first region moves it: an ordinary move
			}
			firing := "the region's own leaf"
			if fromFirst {
				firing = "the first region's leaf"
			}
			c.rep.Warnf(t.TargetPos(), ruleCrossRegion,
				"state %q intent %q arm %d: target %q is in region %q of parallel state %q: while it is active, both engines put it in place of %s, leaving two leaves of %q and none of the other region (whose intents are then refused and whose view is gone); to move that region, send it an event (emit:) it handles instead",
				s.Path, intent, arm, t.Target, dreg.Path, p.Path, firing, dreg.Path)
			return
		}
	})
}

// regionUnder is the child of p that contains s (s itself when a child;
// nil when s is not a strict descendant of p).
func regionUnder(p, s *story.State) *story.State {
	for x := s; x != nil; x = x.Parent {
		if x.Parent == p {
			return x
		}
	}
	return nil
}

// firstRegion is p's region first by name.
func firstRegion(p *story.State) *story.State {
	return slices.MinFunc(p.Children, func(a, b *story.State) int { return strings.Compare(a.Name, b.Name) })
}
