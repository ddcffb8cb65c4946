package engine

import (
	"context"

	"kitsoki/pkg/story/expr"
)

// renderCtx is the context under which every render of the turn being
// run spends one render budget (expr.WithSharedBudget): its says, set
// values, emit names, targets, call args and prompts (through the
// environment callEnv builds) and its views (renderAt). Each template
// still has the limits of one render; together they have them once more,
// so a story cannot multiply the budget by writing many templates. The
// budget is made at the turn's first render and goes with the turn
// (newTurn).
func (r *runner) renderCtx() context.Context {
	if r.t.render == nil {
		r.t.render = expr.WithSharedBudget(context.Background())
	}
	return r.t.render
}
