package flowtest

import (
	"context"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story/expr"
	kview "kitsoki/pkg/view"
)

// rigView is the view the rig checks after a turn that rests at state
// on world, the turn itself having rendered view (flow-format.md §3.7):
// on the legacy path a re-render, on the orchestrator's the turn's own
// unless empty; either falls back to the other. The fixture's run and
// the lint's engine replay (lint_replay_view.go) both read it.
func rigView(ctx context.Context, views engine.ViewRenderer, m *engine.Machine, sess *engine.Session, state string, world map[string]any, view string, legacy bool) string {
	vp, ok := sess.ViewPath(state)
	if legacy && (!ok || exitStateOf(m, state)) {
		// resting on a path the story does not hold, the legacy re-render
		// shows nothing, not the turn's narration (conformance
		// hop-template-target-unknown); nor on an @exit, whose synthesized
		// __exit__ state has no view (conformance exit-transition-view)
		view = ""
	}
	if ok && (view == "" || legacy) && views != nil {
		// upstream has no run context (conformance mutate-run-root-rerender)
		run := map[string]any{"id": "", "turn": 0}
		// and no event, on either path (conformance view-when-legacy-event)
		extra := map[string]any{expr.ContextKey: ctx, "run": run, kview.NilEventKey: true}
		if v, err := views.RenderView(vp, world, extra); err == nil {
			view = v
		}
	}
	return view
}

// exitStateOf reports whether state is an @exit's synthesized terminal
// (__exit__<name>) rather than a state m declares.
func exitStateOf(m *engine.Machine, state string) bool {
	if !strings.HasPrefix(state, "__exit__") {
		return false
	}
	return m == nil || m.States[state] == nil
}
