package phases

import (
	"fmt"
	"maps"
	"slices"

	"kitsoki/pkg/story"
)

// applyBudgets applies a graph entry's cycle_budgets: {<arc>: N} to the
// phase's <id>_executing state, as upstream's expansion does: each arm of
// on.<arc> also requires world.cycle__<id>__<arc> < N (ANDed with its own
// guard) and first increments that key; a last default arm, hinted "cycle
// budget exceeded for <arc>", goes to <id>_error. An arc the state does
// not handle gets only that arm. The counter is not declared: a story
// that budgets declares world.cycle__<id>__<arc> itself (upstream fails
// the turn on the undeclared key). Without an <id>_executing state, or
// with a budgets value that is not a mapping, nothing changes.
func applyBudgets(id string, budgets any, mine []*story.State) {
	m, ok := budgets.(map[string]any)
	if !ok || len(m) == 0 {
		return
	}
	var exec *story.State
	for _, s := range mine {
		if s.Name == id+"_executing" {
			exec = s
		}
	}
	if exec == nil {
		return
	}
	for _, arc := range slices.Sorted(maps.Keys(m)) {
		key := "cycle__" + id + "__" + arc
		cond := fmt.Sprintf("world.%s < %s", key, text(m[arc]))
		for _, t := range exec.Arms(arc) {
			if t.When == "" {
				t.When = cond
			} else {
				t.When = "(" + t.When + ") && (" + cond + ")"
			}
			inc := &story.Effect{Has: map[string]bool{"increment": true}, Pos: t.Pos}
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
