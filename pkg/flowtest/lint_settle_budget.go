package flowtest

import (
	"errors"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// The settle walk (lint_settle.go, lint_jobs_land.go) follows each turn
// of each fixture: the effects of the arms it takes and of the states it
// enters, the emits it fires, the calls it dispatches, the background
// jobs landing on an advance_clock and the known world it copies for the
// turn. Each walk is capped (maxSettleHops, maxLandings and the rest),
// but not what a turn's walk visits in each step: a state whose on_enter
// holds a thousand entries, entered by each of a turn's 31 landings on
// each of 999 turns of ten fixtures, made validate visit 310 million
// entries (TestLintSettleWalksBounded). The story's walks together take
// at most settleSteps steps (an entry visited, a hop, a landing, a
// dispatched call, a world key copied, a level of the state tree a move
// climbs or descends), then no turn is followed any
// more: each is judged step by step as before, as a turn the walk gives
// up on is (a guard on an uncertain value, a call no stub answers).
// An entry costs what running it touches: each node and 64 bytes of the
// values it sets, and for a set: whose value is a template, the story's
// world declarations (engine.SetCoerces reads them all); a bound call,
// its answer's nodes once per bind.

// settleSteps is what one story's settle walks may spend, far above any
// corpus or example story's.
const settleSteps = 20_000_000

// walkBudget is the steps the story's settle walks have spent, and may.
type walkBudget struct {
	spent, limit int64
	entries      map[*story.Effect]int // each entry's cost, reckoned once
	// world: the nodes of the world the replay's run started on, which
	// each turn it runs (a user turn, a landing, a timeout) copies
	world int
}

// spend charges n steps to the story's walks, and reports whether the
// budget still holds them; once it does not, nothing more is charged.
func (b *walkBudget) spend(n int) bool {
	if b.spent > b.limit {
		return false
	}
	b.spent += int64(n)
	return b.spent <= b.limit
}

// spend charges n steps of w to its story's budget.
func (w *settleWalk) spend(n int) bool {
	return w.l.steps.spend(n)
}

// sink charges each event the replay's run writes (lint_par_replay.go)
// to the story's budget, a step and its payload's nodes, and for each
// turn it starts the world's (b.world): once the budget is spent, the
// run fails at the next event, which ends it.
func (b *walkBudget) sink() engine.Sink {
	return engine.SinkFunc(func(ev engine.Event) error {
		n := 1 + valueNodes(ev.Payload)
		if ev.Kind == engine.KindTurnStart {
			n += b.world
		}
		if !b.spend(n) {
			return errReplayBudget
		}
		return nil
	})
}

// errReplayBudget fails a replay's run past the story's budget.
var errReplayBudget = errors.New("the story's lint budget is spent")

// entry charges the cost of running e (entryCost) to w's story.
func (w *settleWalk) entry(e *story.Effect) bool {
	b := &w.l.steps
	n, ok := b.entries[e]
	if !ok {
		n = entryCost(e, len(w.l.ix.story.World))
		if b.entries == nil {
			b.entries = map[*story.Effect]int{}
		}
		b.entries[e] = n
	}
	return b.spend(n)
}

// entryCost is a step, plus for each set: value its nodes, and the
// story's decls world declarations when it is a template, plus a step
// per key an increment: or bind: names.
func entryCost(e *story.Effect, decls int) int {
	n := 1 + len(e.Increment()) + len(e.Bind())
	for _, kv := range e.Set {
		n += valueNodes(kv.Value)
		if hasTemplate(kv.Value) {
			n += decls
		}
	}
	return n
}

// bound charges binding data to call e: its nodes once per bind.
func (w *settleWalk) bound(e *story.Effect, data map[string]any) bool {
	if len(e.Bind()) == 0 {
		return w.spend(1)
	}
	return w.spend(1 + len(e.Bind())*valueNodes(data))
}

// valueNodes counts v's maps, lists and leaves, a string a node per 64
// bytes.
func valueNodes(v any) int {
	switch x := v.(type) {
	case string:
		return 1 + len(x)/64
	case map[string]any:
		n := 1
		for k, e := range x {
			n += valueNodes(k) + valueNodes(e)
		}
		return n
	case map[any]any:
		n := 1
		for _, e := range x {
			n += 1 + valueNodes(e)
		}
		return n
	case []any:
		n := 1
		for _, e := range x {
			n += valueNodes(e)
		}
		return n
	}
	return 1
}

// enter is settleEntered from w.cur to dest, charging the levels of the
// state tree it walks: both states' depths.
func (w *settleWalk) enter(dest *story.State, first bool) ([]*story.State, bool) {
	n := 1
	for _, s := range []*story.State{w.cur, dest} {
		for ; s != nil; s = s.Parent {
			n++
		}
	}
	if !w.spend(n) {
		return nil, false
	}
	return settleEntered(w.cur, dest, first), true
}
