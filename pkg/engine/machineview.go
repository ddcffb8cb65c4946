package engine

import (
	"context"
	"fmt"

	"kitsoki/pkg/story/expr"
)

// machineView renders the view a user turn's machine step reached before
// any dispatch, as upstream's machine.Turn does: a view that cannot render
// makes the turn fatal (conformance view-render-fatal). A step with a
// bind leaves the view to the re-render; on upstream's legacy path, which
// drops the calls, no view is left at all (machineSkipped). It spends a
// budget of its own.
func (r *runner) machineView(ctx context.Context, slots map[string]any, st *step) error {
	r.t.machineSkipped = r.so.MachineOnly && st.binds
	if r.so.Views == nil || r.exit != "" || r.cur == nil || r.t.noView || st.binds {
		return nil
	}
	path := r.statePath()
	if _, err := r.renderAtWith(ctx, expr.WithSharedBudget(context.Background()), path, r.world.Snapshot(), slots, true); err != nil {
		if r.t.transView != nil { // it replaced the state's (renderAtWith)
			return fmt.Errorf("render transition view: %w", err)
		}
		return fmt.Errorf("render state view for %q: %w", path, err)
	}
	return nil
}
