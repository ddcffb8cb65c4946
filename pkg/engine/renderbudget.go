package engine

import (
	"context"

	"kitsoki/pkg/story/expr"
)

// renderCtx is the context under which every render of the turn spends
// one shared budget (expr.WithSharedBudget), so a story cannot multiply
// the budget by writing many templates.
func (r *runner) renderCtx() context.Context {
	if r.t.render == nil {
		r.t.render = expr.WithSharedBudget(context.Background())
	}
	return r.t.render
}
