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

// within makes ctx the context of the session call that runs until the
// returned function is called: the turn's renders and guard and value
// evaluations stop at the first one after ctx ends (kitsoki test's
// --timeout), rather than when the turn ends, and spend the turn's one
// budget all the same.
func (r *runner) within(ctx context.Context) func() {
	r.live = ctx
	return func() { r.live = nil }
}

// evalCtx is the context a render or evaluation of the current step runs
// under: the turn's budget, ended with the session call's context.
func (r *runner) evalCtx() context.Context {
	if r.live == nil {
		return r.renderCtx()
	}
	return expr.ShareBudget(r.live, r.renderCtx())
}
