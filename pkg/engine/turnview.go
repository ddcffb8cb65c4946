package engine

import (
	"context"
	"strings"

	"kitsoki/pkg/story"
)

// renderView renders the resting state's view for turn.end (seam 4) with
// the error banner of story-runtime §2.4 and the say narration of §8.
// The first of these that applies is what upstream shows:
//   - a post-bind pass that stopped at a gate: that state's view alone
//     (postGateView);
//   - restingView's render (the capped chain's landing, an exit's
//     transition view, the render from before dispatch, the resting
//     state's own); when it renders nothing or fails after a swallowed
//     chain, what the turn showed before that chain's hop, or nothing;
//     when it renders nothing, the first render if it stands
//     (firstStands, with its narration); when it renders nothing or
//     fails, the render from before the post-bind pass (prePassStands);
//   - with the narration (turnSaid) above it, or the banner after an
//     on_error redirect (withBanner).
func (r *runner) renderView(ctx context.Context, slots map[string]any) string {
	if r.so.Views == nil || r.t.machineSkipped {
		return ""
	}
	if v, ok := r.postGateView(ctx); ok {
		return v
	}
	turnSlots := slots
	if !r.t.armsRender() {
		// conformance values-render-env; after a hop the post-bind pass
		// fired, its empty slots (postbind-hop-drops-transition-view)
		slots = nil
	}
	v, err := r.restingView(ctx, slots, turnSlots)
	empty := v == "" && err == nil // a failed render is not an empty one
	blank := v == ""               // empty, or failed
	said := r.turnSaid(empty)
	if r.t.capPrePass {
		said = nil // the re-render from before the pass shows alone
	}
	// a redirect in the post-bind pass shows no banner (conformance
	// postbind-redirect-view)
	redirected := r.t.redirectErr != "" && !r.t.hopped()
	if blank && r.t.swallowed && r.t.hopFrom != "" {
		// the swallowed chain's post-bind hop landed on a view that
		// renders nothing (none, an empty one, an exit) or fails: the
		// turn shows what it showed before the pass — the first render
		// with its narration, or none after a bind, and not the hop's
		// narration (conformance swallowed-hop-empty-view,
		// swallowed-hop-view-fails)
		r.t.hopFrom, r.t.capView, r.t.emitSay, r.t.capPostBind = "", r.t.hopFrom, -1, false
		if r.t.hopFirst != nil {
			r.t.first = r.t.hopFirst
		}
		return r.renderView(ctx, turnSlots)
	}
	if err != nil && r.t.swallowed {
		return "" // conformance mutate-landing-view-fails
	}
	if empty && !redirected && r.t.firstStands() {
		return r.renderFirst(ctx, turnSlots)
	}
	if blank && !redirected && r.t.prePassStands() {
		v, said = r.renderPrePass(ctx, turnSlots)
	}
	if blank && r.t.hopped() && r.t.failedBind && r.t.prePass == nil {
		// the pass started with no render kept (keepPrePass): upstream's
		// turn.end has no view, not even the hops' narration
		// (conformance postpass-failed-bind, *_say)
		said = nil
	}
	if !redirected && len(said) > 0 {
		v = prependSay(joinSaid(said), v)
	}
	if redirected && r.t.capView == "" {
		return r.withBanner(ctx, v, err, turnSlots)
	}
	return v
}

// capPostBindLanding is the view of a turn whose post-bind round the depth
// cap cut: its landing's, live (conformance cap-postbind-view,
// cap-postbind-origin-view); when that is an exit, or renders nothing or
// fails after a pass no swallowed chain of the turn's own started (hopFrom:
// renderView's fallback, conformance swallowed-pass-empty-origin, also for
// an exit: swallowed-pass-exit-origin), upstream shows the render from
// before the pass instead, alone (capPrePass; conformance
// cap-postbind-exit-view, cap-postbind-blank-landing).
func (r *runner) capPostBindLanding(ctx context.Context, turnSlots map[string]any) (string, error) {
	prePass := r.t.hopped() && r.t.prePass != nil && !r.t.noView
	if !prePass || !r.isExitPath(r.t.capView) || r.t.hopFrom != "" {
		v, err := r.renderAt(ctx, r.t.capView, r.world.Snapshot(), nil, false)
		if !prePass || v != "" && err == nil || r.t.hopFrom != "" {
			return v, err
		}
	}
	r.t.capPrePass = true
	v, _ := r.renderPrePass(ctx, turnSlots)
	return v, nil
}

// postGateView is the view of a turn whose post-bind pass stopped at a
// gate before any hop of it: upstream renders the resting state's own
// view again, from the live world with no slots, and shows it alone (no
// transition view, no narration) when it renders something (conformance
// postbind-gate-view); the state it stopped at, which after a swallowed
// chain is the originating state, not where the chain left the session.
func (r *runner) postGateView(ctx context.Context) (string, bool) {
	if !r.t.postGate || r.t.hopped() || r.exit != "" || r.par != nil {
		return "", false
	}
	v, err := r.renderAt(ctx, r.t.postGateAt, r.world.Snapshot(), nil, false)
	return v, err == nil && v != ""
}

// turnSaid is the narration shown above the turn's view; empty: the view
// rendered nothing.
func (r *runner) turnSaid(empty bool) []sayLine {
	if empty && r.t.againWithSay() && !r.t.hopped() {
		return r.t.said // conformance mutate-say-infra-error
	}
	if capped, ok := r.t.cappedSay(); ok {
		return capped
	}
	return r.t.narration()
}

// withBanner is a redirected turn's view v (err: its render failed) with
// the error banner of story-runtime §2.4: nothing when the view failed
// (conformance redirect-view-fails), on the turn's first render when it
// is empty.
func (r *runner) withBanner(ctx context.Context, v string, err error, turnSlots map[string]any) string {
	if err != nil {
		return ""
	}
	if v == "" && r.t.first != nil {
		v = r.renderFirst(ctx, turnSlots)
	}
	le, _ := r.world[story.WorldLastError].(string)
	return errorBanner(v, le)
}

// restingView is turn.end's view before narration and banner: which render
// of the turn upstream shows, with slots (nil after a re-render) or the
// turn's own (turnSlots) for a render from before dispatch.
func (r *runner) restingView(ctx context.Context, slots, turnSlots map[string]any) (string, error) {
	switch {
	case r.t.cappedPostBind():
		return r.capPostBindLanding(ctx, turnSlots)
	case r.t.capView != "" && r.t.first != nil:
		// the depth cap shows the turn's first render (story-runtime
		// §2.4; conformance cap-view, cap-at-exit-say)
		return r.renderFirst(ctx, turnSlots), nil
	case r.exit != "":
		// an exit shows no view of its own (conformance mutate-exit-view),
		// but the arm's transition view shows there, with __exit__<name> as
		// its state.path, unless the calls rendered again (conformance
		// exit-transition-view)
		if r.t.transView != nil && r.t.armsRender() {
			return r.renderAt(ctx, r.statePath(), r.world.Snapshot(), slots, true)
		}
	case r.t.armsRender() && r.t.first != nil && r.t.redirectErr == "" && !r.t.noView:
		// a domain error alone: the render from before dispatch
		// (conformance host-domain-error-view); once the post-bind
		// pass fired a hop, as after a call that bound nothing
		// (conformance postbind-hop-after-domain-error)
		return r.renderAt(ctx, r.statePath(), r.t.first.world, slots, true)
	case r.t.dotStay && r.t.againWithSay() && !r.t.hopped() && !r.t.postGate && r.t.first != nil && r.t.redirectErr == "" && !r.t.noView:
		// a call failed with no on_error, then another's on_error "."
		// stopped the batch, which held no bind: upstream's first render
		// was never skipped, and stands with its narration (conformance
		// infra-then-dot-stay, infra-then-dot-say)
		return r.renderFirst(ctx, turnSlots), nil
	case !r.t.noView || r.t.rerender: // conformance parallel-root-bind
		w := r.world.Snapshot()
		if r.t.rerender && (r.t.dotStay || !r.t.applied) && !r.t.hopped() && !r.t.postGate {
			w, r.t.rigView = r.replayedWorld(), true
		} else if r.t.capView != "" {
			// a capped chain that had no first render leaves turn.end
			// without a view: the flow rig's, from the replayed world
			// (conformance cap-view-replayed)
			w, r.t.rigView = r.replayedWorld(), true
		}
		path := r.statePath()
		if r.t.rigView {
			// the rig renders where upstream's log leaves the session:
			// before a lost hop (conformance rig-view-lost-hop,
			// cap-view-lost-hop)
			path = r.loggedPath()
		}
		// a hop the post-bind pass fired leaves the state's own view, not
		// the arm's (conformance postbind-hop-drops-transition-view)
		return r.renderAt(ctx, path, w, slots, r.t.armsRender())
	}
	return "", nil
}

// prependSay puts a turn's say narration before its view, separated by a
// blank line when both are non-empty (story-runtime §8).
func prependSay(say, view string) string {
	switch {
	case say == "":
		return view
	case view == "":
		return say
	}
	return say + "\n\n" + view
}

// joinSaid is the narration of a turn's say lines, built as upstream
// builds it: each effect chain's texts are joined, a text going after a
// newline only when the chain's text so far is not empty (a say rendering
// empty before any text adds nothing, one after text a bare newline), and
// the chains' texts that are not empty are joined by newlines
// (conformance say-empty-lines).
func joinSaid(said []sayLine) string {
	var all, chain strings.Builder
	flush := func() {
		if chain.Len() > 0 {
			if all.Len() > 0 {
				all.WriteByte('\n')
			}
			all.WriteString(chain.String())
		}
		chain.Reset()
	}
	for i, s := range said {
		if i > 0 && s.chain != said[i-1].chain {
			flush()
		}
		if chain.Len() > 0 {
			chain.WriteByte('\n')
		}
		chain.WriteString(s.text)
	}
	flush()
	return all.String()
}

// errorBanner appends upstream's banner after an on_error redirect
// (story-runtime §2.4) unless the view already shows lastErr, the world's
// last_error as the turn ends (conformance host-banner-last-error).
func errorBanner(view, lastErr string) string {
	if strings.Contains(view, lastErr) {
		return view
	}
	banner := "⚠ Action failed: " + lastErr
	if view == "" {
		return banner
	}
	return view + "\n\n" + banner
}

// narration is the say lines turn.end shows before the view: all of the
// turn's; after a post-bind hop only those the hops said (conformance
// postpass-view); after a re-render with no such hop, none (§8).
func (t *turn) narration() []sayLine {
	switch {
	case t.emitSay >= 0 && t.emitSay < len(t.said):
		if t.emitSayEnd >= t.emitSay && t.emitSayEnd < len(t.said) {
			return t.said[t.emitSay:t.emitSayEnd]
		}
		return t.said[t.emitSay:]
	case t.hopped() || t.rerender:
		return nil
	}
	return t.said
}

// cappedSay is the narration of a capped post-bind chain: what its first
// round said up to the first redirect (conformance cap-chain-say); ok is
// false when the turn is not one.
func (t *turn) cappedSay() (said []sayLine, ok bool) {
	if t.capView == "" || t.first != nil && !t.capPostBind || !t.hopped() ||
		t.saidAtRedirect <= t.emitSay || t.saidAtRedirect > len(t.said) {
		return nil, false
	}
	if t.emitSayEnd < 0 {
		return t.said[t.emitSay:t.saidAtRedirect], true
	}
	return t.said[t.emitSay:min(t.saidAtRedirect, max(t.emitSayEnd, t.emitSay))], true
}

// firstStands reports whether, when the turn's resting view renders
// nothing (and no redirect shows its banner), the turn's first render
// stands, transition view and narration included: only background jobs
// that bound nothing, or calls that failed with no on_error, made
// upstream render again (conformance submit-empty-rerender,
// infra-error-empty-rerender).
func (t *turn) firstStands() bool {
	return (t.submitOnly || t.againWithSay()) && t.first != nil && !t.hopped()
}

// prePassStands reports whether, when the resting view of a turn whose
// emit fired a pass renders nothing or fails (and no redirect shows its
// banner), the view from before that pass is shown (conformance
// postpass-view, postpass-view-fails, mutate-landing-view-fails).
func (t *turn) prePassStands() bool {
	return t.hopped() && t.prePass != nil && t.capView == "" && !t.noView
}

// hopped reports whether the post-bind pass fired a hop this turn: its
// narration starts at emitSay, its render has no slots or transition
// view, and a redirect in it shows no banner.
func (t *turn) hopped() bool { return t.emitSay >= 0 }

// armsRender reports whether the turn's render is still the arm's: no
// call asked for a re-render and the post-bind pass fired no hop, so the
// turn's slots and transition view show.
func (t *turn) armsRender() bool { return !t.rerender && !t.hopped() }

// cappedPostBind reports whether the on_error depth cap cut a chain the
// post-bind pass started (capView is the state it swallowed at).
func (t *turn) cappedPostBind() bool { return t.capView != "" && t.capPostBind }

// againWithSay reports whether the turn renders again keeping its
// narration: a call failed with no on_error or a background submission
// bound nothing (a bind drops the narration).
func (t *turn) againWithSay() bool { return t.rerender && !t.dropSay }
