package engine

import "context"

// keepPrePass remembers, before each round of the post-bind pass, the
// render the turn had then: its resting state, the world and how much
// had been said. Upstream runs each round as a turn of its own and shows
// its result only when its resting state's view renders something;
// otherwise the turn keeps what the round before it had, the world the
// earlier rounds' calls left included (random differential 091: a turn
// leaving a parallel configuration whose entered state's emit hops to a
// leaf with no view; conformance postpass-view, mutate-postpass-last-round).
func (r *runner) keepPrePass() {
	if r.so.Views == nil {
		return
	}
	r.t.prePass = &firstRender{path: r.statePath(), world: r.world.Snapshot(), said: len(r.t.said), rerender: r.t.rerender}
}

// renderPrePass is turn.end's view and narration when the post-bind
// hops came to rest on an empty view: the kept state's view against the
// kept world, with the turn's slots and transition view (none after a
// re-render), and the narration said before the pass unless the turn had
// re-rendered by then (§8), which shows none: what the pass's own calls
// bind is the pass's turn, not this one (random differential flow
// 318000/021, conformance postpass-view calls.yaml).
func (r *runner) renderPrePass(ctx context.Context, slots map[string]any) (string, []string) {
	p := r.t.prePass
	if p.rerender {
		slots = nil
	}
	v, _ := r.renderAt(ctx, p.path, p.world, slots, !p.rerender)
	if p.rerender || p.said > len(r.t.said) {
		return v, nil
	}
	return v, r.t.said[:p.said]
}
