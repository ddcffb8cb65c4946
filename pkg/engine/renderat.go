package engine

import (
	"context"

	"kitsoki/pkg/story/expr"
)

// renderAt renders the view of the state at path against world, with the
// turn's slots, upstream's empty run root and, with trans, the turn's
// transition view. A failed render is noted and shows nothing.
func (r *runner) renderAt(ctx context.Context, path string, world, slots map[string]any, trans bool) (string, error) {
	return r.renderAtWith(ctx, r.renderCtx(), path, world, slots, trans)
}

// renderAtWith is renderAt spending the render budget budget carries.
func (r *runner) renderAtWith(ctx, budget context.Context, path string, world, slots map[string]any, trans bool) (string, error) {
	trans = trans && r.t.transView != nil
	resting := path == r.statePath()
	vp, ok := r.viewPath(path) // unknownstart.go
	switch {
	case ok:
		path = vp
	case !trans:
		return "", nil
		// else: the arm's view shows on a path the story lacks (conformance
		// transition-view-unknown-target)
	}
	run := map[string]any{"id": "", "turn": 0}
	extra := map[string]any{"slots": slots, "run": run, expr.ContextKey: expr.ShareBudget(ctx, budget)}
	if trans {
		extra["transition_view"] = r.t.transView
		if r.t.transAt != "" && resting {
			extra["transition_at"] = r.t.transAt
		}
	}
	v, err := r.so.Views.RenderView(path, world, extra)
	if err != nil {
		r.note(Note{Kind: "view", State: path, Error: err.Error()})
		return "", err
	}
	return v, nil
}
