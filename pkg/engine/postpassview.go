package engine

import "context"

// keepPrePass remembers, before the post-bind pass's first hop, the
// render the turn had then: its resting state, the world and how much
// had been said. Upstream runs the pass as a turn of its own and shows
// that turn's result only when its resting state's view renders
// something; otherwise the turn keeps what it had (random differential
// 091: a turn leaving a parallel configuration whose entered state's
// emit hops to a leaf with no view; conformance postpass-view).
func (r *runner) keepPrePass() {
	if r.t.prePass != nil || r.so.Views == nil {
		return
	}
	r.t.prePass = &firstRender{path: r.statePath(), world: r.world.Snapshot(), said: len(r.t.said)}
}

// renderPrePass is turn.end's view and narration when the post-bind
// hops came to rest on an empty view: the kept state's view against the
// kept world, with slots as the turn renders them (none after a
// re-render), and the narration said before the pass unless the turn
// re-renders (§8), which shows none.
func (r *runner) renderPrePass(ctx context.Context, slots map[string]any) (string, []string) {
	p := r.t.prePass
	v, _ := r.renderAt(ctx, p.path, p.world, slots, !r.t.rerender)
	if r.t.rerender || p.said > len(r.t.said) {
		return v, nil
	}
	return v, r.t.said[:p.said]
}
