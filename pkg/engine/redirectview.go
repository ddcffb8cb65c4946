package engine

import (
	"cmp"
	"context"
)

// firstRender is what upstream's first render of a turn saw: the state
// the turn had reached before its calls were dispatched, the world then
// (before any last_error) and the say narration said so far.
type firstRender struct {
	path     string
	world    map[string]any
	said     int
	noView   bool // the narration alone (conformance redirect-after-root-view)
	rerender bool // turn.rerender when this render was kept
	again    bool // turn.rerender without turn.dropSay when it was kept
}

// keepFirst remembers the world a turn's first failing call found, when
// nothing has asked for a re-render yet: a redirect to an empty view
// shows that render with the banner (conformance redirect-view).
func (r *runner) keepFirst() {
	if r.t.first != nil || r.t.rerender || r.t.redirectErr != "" || r.so.Views == nil {
		return
	}
	path := cmp.Or(r.t.dispatchState, r.statePath())
	r.t.first = &firstRender{path: path, world: r.world.Snapshot(), said: len(r.t.said), noView: r.t.noView}
}

// renderFirst renders the kept first view as the first render saw it,
// with the turn's slots and transition view, and the turn's narration
// before it (story-runtime §8); a failed render shows nothing, as
// renderView's does.
func (r *runner) renderFirst(ctx context.Context, slots map[string]any) string {
	f := r.t.first
	v := ""
	if !f.noView {
		v, _ = r.renderAt(ctx, f.path, f.world, slots, true)
	}
	if f.said > 0 && f.said <= len(r.t.said) {
		v = prependSay(joinSaid(r.t.said[:f.said]), v)
	}
	return v
}

// landingViewFails reports whether the view of the state an on_error
// redirect landed on fails to render against the world the landing left
// (an exit, a parallel configuration or a story without views renders
// nothing, and cannot fail).
func (r *runner) landingViewFails(ctx context.Context) bool {
	if r.so.Views == nil || r.exit != "" || r.par != nil || r.cur == nil {
		return false
	}
	_, err := r.renderAt(ctx, r.statePath(), r.world.Snapshot(), nil, false)
	return err != nil
}

// unsubmit: an on_error that names no state after background submissions
// that bound nothing leaves the turn as if nothing had been applied, as
// upstream: the first render shows, with its narration (conformance
// submit-then-dot-stay).
func (r *runner) unsubmit() {
	if r.t.submitOnly {
		r.t.rerender, r.t.applied, r.t.submitOnly = false, false, false
	}
}
