package phases

import (
	"fmt"

	"kitsoki/pkg/story"
)

// applyBudgets applies a graph entry's cycle_budgets: {<arc>: N} to exec
// (the phase's *_executing state) as upstream's expansion does: each
// non-default arm of on.<arc> also requires world.cycle__<id>__<arc> < N
// and first increments it; a last default arm, hinted "cycle budget
// exceeded for <arc>", goes to <id>_error. An arc the state does not handle
// gets an arm to its next: state, when there is one, under the same guard
// (probe phase-budget-next), then that default arm. The counter is not
// declared here.
func applyBudgets(id string, budgets []story.Budget, next any, exec *story.State) {
	if len(budgets) == 0 || exec == nil {
		return
	}
	nexts, _ := next.(map[string]any)
	for _, b := range budgets {
		arc := b.Arc
		key := "cycle__" + id + "__" + arc
		cond := fmt.Sprintf("world.%s < %d", key, b.Limit)
		guard := func(t *story.Transition) {
			if t.When == "" {
				t.When = cond
			} else {
				t.When = "(" + t.When + ") && (" + cond + ")"
			}
			inc := &story.Effect{Written: story.EffectKeysOf("increment"), Pos: t.Pos}
			inc.Extra().Increment = []story.KV{{Key: key, Value: 1, Pos: t.Pos}}
			t.Effects = append([]*story.Effect{inc}, t.Effects...)
		}
		for _, t := range exec.Arms(arc) {
			if !t.Default() {
				guard(t)
			}
		}
		over := &story.Transition{Target: id + "_error", Pos: exec.Pos}
		over.Extra().Default = true
		over.Extra().GuardHint = "cycle budget exceeded for " + arc
		at := exec.Pos
		arms := []*story.Transition{over}
		if exec.HasOn(arc) {
			at = story.Pos{}
		} else if to, ok := nexts[arc]; ok {
			t := &story.Transition{Target: executing(text(to)), Pos: exec.Pos}
			guard(t)
			arms = append([]*story.Transition{t}, arms...)
		}
		exec.AddOn(arc, at, arms...)
	}
}
