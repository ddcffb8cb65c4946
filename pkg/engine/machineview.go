package engine

import (
	"context"
	"fmt"

	"kitsoki/pkg/story/expr"
)

// machineView renders the view a user turn's machine step reached (its
// arm's effects, move and pre-bind emit hops done, no call dispatched
// yet), as upstream's machine.Turn does before it returns: a view that
// cannot render there makes the turn fatal (story-runtime §1.12), the
// state and world as they were (conformance view-render-fatal). A step
// that reached an invoke with a bind (foreground or background) renders
// only after dispatch, upstream's machine leaving the view to the
// re-render (on the legacy path too, whose calls are dropped); renders
// after dispatch (after a bind, an on_error landing, a timeout, a job's
// on_complete) show an empty view. The check spends a budget of its own,
// so the turn's renders keep theirs.
func (r *runner) machineView(ctx context.Context, slots map[string]any, st *step) error {
	if r.so.Views == nil || r.exit != "" || r.par != nil || r.cur == nil || r.t.noView {
		return nil
	}
	if st.binds {
		return nil
	}
	path := r.statePath()
	if _, err := r.renderAtWith(ctx, expr.WithSharedBudget(context.Background()), path, r.world.Snapshot(), slots, true); err != nil {
		return fmt.Errorf("render state view for %q: %w", path, err)
	}
	return nil
}
