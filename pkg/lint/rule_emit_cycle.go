package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEmitCycle = &Rule{ID: "emit-cycle", Severity: diag.Error, LintOnly: true,
	Summary: "an unguarded emit_intent chain comes back to where it started (the arm that takes each emit is unguarded and emits the next one): the dispatch never ends, and both engines fail the turn at depth 24 every time it is reached",
	Example: "on:\n  ping: [{target: ., effects: [{emit_intent: ping}]}]"}

// emitNode is an intent dispatched at a leaf state.
type emitNode struct {
	at     *story.State
	intent string
}

// emitStep is where an emitted intent's arm leads: the next emit, the
// emit_intent effect that makes it, and the arm's intent and state.
type emitStep struct {
	next emitNode
	emit *story.Effect
}

// checkEmitCycles reports an emit chain that certainly loops: from an
// intent at a leaf, the first arm that takes it is unguarded, calls no
// host (which could fail and redirect), enters no state whose on_enter
// calls a host or emits, and its first emit_intent is unguarded; an emit
// in an arm's effects is dispatched at the arm's target (probed: a.ping
// → b emitting pong, b.pong → a emitting ping fails with "dispatch
// exceeded max depth (24)"). Each step has one successor, so a walk that
// meets itself is a cycle; each cycle is reported once, at the emit of
// its first member in state order.
//
// Only the nodes with a step are kept (steps, which is also the walk's
// done set): most arms emit nothing, and a node without a step ends any
// walk that reaches it, so it is looked at again at most once per step
// leading to it.
func checkEmitCycles(c *checker) {
	steps := map[emitNode]*emitStep{}
	for _, s := range c.states() {
		if len(s.Children) > 0 || inParallel(s) {
			continue
		}
		for _, on := range s.On {
			start := emitNode{s, on.Intent}
			var path []emitNode
			for n := start; steps[n] == nil; {
				st := c.emitStep(n)
				if st == nil {
					break
				}
				steps[n] = st
				path = append(path, n)
				if i := slices.Index(path, st.next); i >= 0 {
					c.reportEmitCycle(path[i:], steps)
					break
				}
				n = st.next
			}
		}
	}
}

// emitStep is what dispatching n certainly does next, or nil when that is
// not certain (or nothing is emitted).
func (c *checker) emitStep(n emitNode) *emitStep {
	arm := firstArm(n.at, n.intent)
	if arm == nil || arm.When != "" || story.IsTemplated(n.intent) {
		return nil
	}
	if in := c.lookupIntent(n.at, n.intent, true); in != nil && slices.ContainsFunc(sortedMapKeys(in.Slots), func(k string) bool { return in.Slots[k] != nil && in.Slots[k].Required }) {
		return nil // an emit without the slot is refused (MISSING_SLOTS), not looped
	}
	var emit *story.Effect
	for _, e := range arm.Effects {
		if e.Invoke != "" || len(e.Effects()) > 0 {
			return nil
		}
		if e.EmitIntent() != "" && emit == nil {
			emit = e
		}
	}
	if emit == nil || emit.When != "" || story.IsTemplated(emit.EmitIntent()) {
		return nil
	}
	tg, err := n.at.Resolve(arm.Target)
	if err != nil {
		return nil
	}
	next := n.at
	switch tg.Kind {
	case story.TargetStay:
	case story.TargetState:
		if tg.State.Import != nil {
			return nil
		}
		next = c.descend(tg.State)
		if next == nil || len(next.Children) > 0 || inParallel(next) {
			return nil
		}
		for s := next; s != nil; s = s.Parent {
			if slices.ContainsFunc(s.OnEnter, func(e *story.Effect) bool { return e.Invoke != "" || e.EmitIntent() != "" }) {
				return nil
			}
		}
	default:
		return nil
	}
	if next.Terminal {
		return nil // a session that ends there may stop dispatching
	}
	return &emitStep{next: emitNode{next, strings.TrimSpace(emit.EmitIntent())}, emit: emit}
}

// reportEmitCycle reports the cycle at the emit of its member that comes
// first in state order, naming every hop.
func (c *checker) reportEmitCycle(cycle []emitNode, steps map[emitNode]*emitStep) {
	first := 0
	order := func(n emitNode) int { return slices.Index(c.states(), n.at) }
	for i, n := range cycle {
		if o, f := order(n), order(cycle[first]); o < f || (o == f && n.intent < cycle[first].intent) {
			first = i
		}
	}
	cycle = append(cycle[first:len(cycle):len(cycle)], cycle[:first]...)
	hops := make([]string, 0, len(cycle)+1)
	for _, n := range cycle {
		hops = append(hops, fmt.Sprintf("%s at %q", n.intent, n.at.Path))
	}
	hops = append(hops, hops[0])
	head := cycle[0]
	c.rep.ErrAt(steps[head].emit.PosOf("emit_intent"), diag.ArcPlace(head.at.Path, head.intent), ruleEmitCycle,
		"state %q intent %q: its emit_intent %q starts a chain that never ends (%s): every arm on it is unguarded, so both engines dispatch until they fail the turn (emit_intent: dispatch exceeded max depth (24)); guard one of the emits with when:, or drop it",
		head.at.Path, head.intent, steps[head].next.intent, strings.Join(hops, " → "))
}
