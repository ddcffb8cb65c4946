package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleParEmitLeave = &Rule{ID: "par-emit-leave", Severity: diag.Warning, LintOnly: true,
	Summary: "a region's emit: event is taken, for another region, by an unguarded arm above that region's states (the region's own, the parallel state's or an ancestor's) whose target lies outside the parallel state: both engines write that target into the receiving region's place (p#outside|outside|p.ra.a2), run its on_enter once per receiving region, and drop the region at the next turn",
	Example: "p:\n  type: parallel\n  on:\n    done: [{target: outside}]   # a region's emit: done moves every other region out\n  states: ..."}

// checkParEmitLeave warns at a region's arm that sends an emit: event
// (its emit: list or an effect's emit:) when, for another region of the
// same parallel state, the first handler above that region's states (the
// region itself, the parallel state, an ancestor) is an unguarded arm
// targeting a state outside the parallel state, and no state inside that
// region has an arm for the event or a "*" arm (one could take it first).
// Upstream moves that region out alone and keeps the target in its place
// (conformance par-emit-leave); kitsoki does the same. An arm that itself
// leaves the parallel state, or targets it, delivers nothing and is not
// judged.
func checkParEmitLeave(c *checker) {
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		p := nearest(s.Parent, func(x *story.State) bool { return x.Parallel })
		if p == nil || !deliversEmits(s, t, p) {
			return
		}
		evs := slices.Clone(t.Emit())
		for _, e := range t.Effects {
			if e != nil && e.Emit() != "" {
				evs = append(evs, e.Emit())
			}
		}
		own := regionUnder(p, s)
		for _, ev := range evs {
			for _, reg := range p.Children {
				if reg == own || story.IsTemplated(ev) {
					continue
				}
				if dst := leavingHandler(reg, p, ev); dst != nil {
					c.rep.Warnf(t.Pos, ruleParEmitLeave,
						"state %q intent %q arm %d: emit: %q reaches region %q, whose handler moves it to %q outside the parallel state %q: both engines put %q in that region's place (%s#…|%s), run its on_enter once per receiving region and drop the region at the next turn (target a state inside %q, or leave %q from an arm of %q itself)",
						s.Path, intent, arm, ev, reg.Path, dst.Path, p.Path, dst.Path, p.Path, dst.Path, p.Path, p.Path, p.Path)
				}
			}
		}
	})
}

// deliversEmits reports whether the arm t of s (inside parallel state p)
// stays or moves inside p: only then are its emit: events propagated.
func deliversEmits(s *story.State, t *story.Transition, p *story.State) bool {
	if strings.TrimSpace(t.Target) == "" || strings.TrimSpace(t.Target) == "." {
		return true
	}
	tg, err := s.Resolve(t.Target)
	return err == nil && tg.Kind == story.TargetState && tg.State != p && isUnder(tg.State, p)
}

// leavingHandler is the target outside p of the first handler for ev
// above region reg's states, when that handler is an unguarded arm and no
// state inside reg could take ev first; nil otherwise.
func leavingHandler(reg, p *story.State, ev string) *story.State {
	if anyInside(reg, func(x *story.State) bool { return x.HasOn(ev) || x.HasOn("*") }) {
		return nil
	}
	h := nearest(reg, func(x *story.State) bool { return x.HasOn(ev) || x.HasOn("*") })
	if h == nil {
		return nil
	}
	arms := h.Arms(ev)
	if !h.HasOn(ev) {
		arms = h.Arms("*")
	}
	if len(arms) == 0 || arms[0].When != "" || story.IsTemplated(arms[0].Target) {
		return nil
	}
	tg, err := h.Resolve(arms[0].Target)
	if err != nil || tg.Kind != story.TargetState || tg.State == p || isUnder(tg.State, p) || initialParallel(tg.State) != nil || tg.State.Import != nil {
		return nil
	}
	return tg.State
}

// isUnder reports whether s is a strict descendant of a.
func isUnder(s, a *story.State) bool {
	return nearest(s.Parent, func(x *story.State) bool { return x == a }) != nil
}

// anyInside reports whether a strict descendant of s satisfies is.
func anyInside(s *story.State, is func(*story.State) bool) bool {
	for _, c := range s.Children {
		if is(c) || anyInside(c, is) {
			return true
		}
	}
	return false
}
