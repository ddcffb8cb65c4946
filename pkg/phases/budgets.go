package phases

import (
	"fmt"

	"kitsoki/pkg/story"
)

// applyBudgets applies a graph entry's cycle_budgets: {<arc>: N}
// (story.PhaseNode.Budgets reads N) to exec, a state named *_executing the
// phase generated (or the one that won over it), as upstream's expansion
// does: each arm of on.<arc> but a `default: true`
// one also requires world.cycle__<id>__<arc> < N (ANDed with its own
// guard) and first increments that key; a default arm is left as it is. A
// last default arm, hinted "cycle budget exceeded for <arc>", goes to
// <id>_error. An arc the state does not handle gets only that arm. The
// counter is not declared: a story that budgets declares
// world.cycle__<id>__<arc> itself (upstream fails the turn on the
// undeclared key).
func applyBudgets(id string, budgets []story.Budget, exec *story.State) {
	if len(budgets) == 0 || exec == nil {
		return
	}
	for _, b := range budgets {
		arc := b.Arc
		key := "cycle__" + id + "__" + arc
		cond := fmt.Sprintf("world.%s < %d", key, b.Limit)
		for _, t := range exec.Arms(arc) {
			if t.Default() {
				continue
			}
			if t.When == "" {
				t.When = cond
			} else {
				t.When = "(" + t.When + ") && (" + cond + ")"
			}
			inc := &story.Effect{Written: story.EffectKeysOf("increment"), Pos: t.Pos}
			inc.Extra().Increment = []story.KV{{Key: key, Value: 1, Pos: t.Pos}}
			t.Effects = append([]*story.Effect{inc}, t.Effects...)
		}
		over := &story.Transition{Target: id + "_error", Pos: exec.Pos}
		over.Extra().Default = true
		over.Extra().GuardHint = "cycle budget exceeded for " + arc
		at := exec.Pos
		if exec.HasOn(arc) {
			at = story.Pos{}
		}
		exec.AddOn(arc, at, over)
	}
}
