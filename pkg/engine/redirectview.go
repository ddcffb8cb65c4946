package engine

import (
	"cmp"
	"context"
	"strings"
)

// firstRender is what upstream's first render of a turn saw: the state
// the turn had reached before its calls were dispatched, the world then
// (before any last_error) and the say narration said so far.
type firstRender struct {
	path  string
	world map[string]any
	said  int
	// noView: the turn had moved in a way after which upstream renders
	// no view (a parallel root re-placing its regions): the first render
	// is the narration alone (conformance redirect-after-root-view)
	noView bool
	// rerender: the turn re-renders after its calls (turn.rerender) as
	// it stood when this render was kept
	rerender bool
}

// keepFirst remembers the world a failing call's turn had before the
// failure wrote last_error, when nothing the batch did has asked for a
// re-render yet (the first failure only). After an on_error redirect to a
// state whose view renders empty (no view of its own, or a template
// rendering ""), upstream keeps that first render, narration included,
// and appends the banner (conformance redirect-view): renderFirst.
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
		v = prependSay(strings.Join(r.t.said[:f.said], "\n"), v)
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
