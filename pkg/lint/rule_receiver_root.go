package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleReceiverRoot = &Rule{ID: "receiver-root", Severity: diag.Warning, LintOnly: true,
	Summary: "a region receives an emit: event through an arm that targets its parallel state itself, or that has no target on the parallel state or above it, or whose target is one {{ }} tag rendering empty or to such a state on a value the world key it reads can hold (its default, a literal set:): the existing engine, and kitsoki as it, writes that state's initial encoding into the region's slot and rests on a corrupt configuration (p#p#...), read back at the next turn with the receiving region on its initial leaf; it also ends an emit cycle there",
	Example: "p: {type: parallel, on: {ping: [{}]}, states: {ra: {states: {a1: {on: {go: [{emit: [ping]}]}}}}, rb: ...}}"}

// checkReceiverRoot warns at a receiver arm of an emit: event inside a
// parallel state p that upstream writes into the receiving region's slot
// (docs/compat/engine.md, "A receiver whose arm targets the parallel
// root"; probed: a root's ping: [{}], [{target: .}] and [{target: p}], a
// leaf's [{target: p}] and a targetless arm above p all corrupt the
// configuration; a targetless arm on the region itself does not, and a
// target outside p ours now writes as upstream: conformance par-emit-leave). Each
// region's leaves look the event up as an intent is; the arms that may
// take it (up to the first unguarded one) are judged once each.
func checkReceiverRoot(c *checker) {
	emitted := c.emittedInside()
	done := map[*story.Transition]bool{}
	vals := c.worldValues()
	for _, p := range c.states() {
		if !p.Parallel {
			continue
		}
		for _, reg := range p.Children {
			for _, ev := range sortedMapKeys(emitted[p]) {
				if !slices.ContainsFunc(emitted[p][ev], func(s *story.State) bool { return regionUnder(p, s) != reg }) {
					continue // only the region itself sends it: it does not receive it
				}
				for _, leaf := range story.Flatten([]*story.State{reg}) {
					if len(leaf.Children) > 0 {
						continue
					}
					c.judgeReceiver(p, reg, leaf, ev, done, vals)
				}
			}
		}
	}
}

// judgeReceiver warns at the arms the event ev, looked up from leaf in
// region reg of p, may take that write a corrupt slot upstream.
func (c *checker) judgeReceiver(p, reg, leaf *story.State, ev string, done map[*story.Transition]bool, vals *staticValues) {
	owner := nearest(leaf, func(s *story.State) bool { return s.HasOn(ev) })
	if owner == nil {
		return
	}
	for i, arm := range owner.Arms(ev) {
		if !done[arm] {
			done[arm] = true
			what, target := receiverCorrupts(p, reg, owner, arm.Target), arm.Target
			if what == "" {
				what, target = templatedCorrupts(p, reg, owner, arm.Target, vals)
			}
			if what != "" {
				c.rep.Warnf(armPos(arm), ruleReceiverRoot,
					"state %q intent %q arm %d: region %q receives the emit: event %q here, and this arm %s: the existing engine writes that state into the region's slot and rests on a corrupt configuration (%s), where an emit cycle through it also ends, and kitsoki does the same; the next turn reads the region back on its initial leaf; to keep the region where it is, handle %q in its own states (%s: [{}] on %q or its leaves), or target one of its states to move it",
					owner.Path, ev, i, reg.Path, ev, what, corruptPath(p, reg, owner, target), ev, ev, reg.Path)
			}
		}
		if arm.When == "" {
			return
		}
	}
}

// receiverCorrupts says how arm, found on owner (its target: target) for a receiver in region
// reg of p, writes a state outside the region's reach into its slot ("":
// it does not, or that is not certain).
func receiverCorrupts(p, reg, owner *story.State, target string) string {
	tg, err := owner.Resolve(target)
	if err != nil {
		return ""
	}
	switch tg.Kind {
	case story.TargetStay:
		if onLine(reg, owner) {
			return "" // a stay in the region keeps its leaf on both engines
		}
		if target == "" {
			return fmt.Sprintf("has no target on %q, which upstream reads as a move to that state", owner.Path)
		}
		return fmt.Sprintf("targets %q, which is %q", target, owner.Path)
	case story.TargetState:
		// a target outside p both engines write into the slot alike
		// (conformance par-emit-leave; validate's par-emit-leave)
		if tg.State == p {
			return fmt.Sprintf("targets %q, the parallel state itself", target)
		}
		if tg.State != p && initialParallel(tg.State) == p {
			// both engines take it as a target of p (conformance
			// par-emit-leave-parallel)
			return fmt.Sprintf("targets %q, whose initial: chain enters the parallel state itself", target)
		}
	}
	return ""
}

// templatedCorrupts is receiverCorrupts for a templated target that is
// one {{ }} tag alone ("{{ world.next }}"), and the value it renders to
// there: it judges each value the world keys the tag reads can hold (a
// default, a literal set:; rule_unreachable.go's templateTargets), so an
// empty default on the parallel state or above it is a move to that
// state upstream, as a written "." is (hunt92's legacy story 133, probed).
func templatedCorrupts(p, reg, owner *story.State, target string, vals *staticValues) (string, string) {
	tpl := strings.TrimSpace(target)
	if !story.IsTemplated(tpl) || tagRe.Get().FindString(tpl) != tpl || !strings.HasPrefix(tpl, "{{") {
		return "", target
	}
	names, _ := vals.templateTargets(tpl)
	for _, v := range names {
		if what := receiverCorrupts(p, reg, owner, v); what != "" {
			return fmt.Sprintf("has the templated target %q, which renders %q where the world keys it reads hold a value the story gives them (a default or a literal set:), and so %s", target, v, what), v
		}
	}
	return "", target
}

// initialParallel is the parallel state a move entering s reaches through
// literal initial: children (s itself when parallel); nil when there is
// none or a templated initial: decides.
func initialParallel(s *story.State) *story.State {
	for s != nil && !s.Parallel {
		if s.Initial() == "" || story.IsTemplated(s.Initial()) {
			return nil
		}
		var next *story.State
		for _, ch := range s.Children {
			if ch.Name == s.Initial() {
				next = ch
			}
		}
		s = next
	}
	return s
}

// corruptPath sketches the configuration upstream rests on: the parallel
// state's own encoded path, or the outside state, in the region's slot.
func corruptPath(p, reg, owner *story.State, target string) string {
	into := p.Path + "#..."
	if tg, err := owner.Resolve(target); err == nil && tg.Kind == story.TargetState && tg.State != p && initialParallel(tg.State) != p {
		into = tg.State.Path
	} else if tg.Kind == story.TargetStay && owner != p {
		into = owner.Path
	}
	return fmt.Sprintf("%s#...|%s in %q's place", p.Path, into, reg.Path)
}

// armPos is where an arm's target: is written, else the arm.
func armPos(arm *story.Transition) story.Pos {
	if p := arm.TargetPos(); p.Line > 0 {
		return p
	}
	return arm.Pos
}

// emittedInside maps each parallel state to the emit: events sent inside
// it (its own and its descendants' arms and effects) and the states
// sending each.
func (c *checker) emittedInside() map[*story.State]map[string][]*story.State {
	out := map[*story.State]map[string][]*story.State{}
	add := func(at *story.State, ev string) {
		if ev == "" || at == nil {
			return
		}
		for p := at; p != nil; p = p.Parent {
			if p.Parallel {
				if out[p] == nil {
					out[p] = map[string][]*story.State{}
				}
				out[p][ev] = append(out[p][ev], at)
			}
		}
	}
	c.eachTransition(func(s *story.State, _ string, _ int, t *story.Transition) {
		for _, ev := range t.Emit() {
			add(s, ev)
		}
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !site.Inline && !site.Template {
			add(site.State, e.Emit())
		}
	})
	return out
}
