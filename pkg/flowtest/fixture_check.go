package flowtest

import (
	"context"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story/expr"
)

// errorTurn checks an expect_error turn, which runs no other assertion
// (flow-format.md §3.6).
func (fr *fixtureRun) errorTurn(ctx context.Context, t *Turn, c *checker, tr *TurnResult, out outcome, from string, before map[string]any) (*TurnResult, bool) {
	if fr.legacy {
		c.state = from
	}
	mode := "transitioned"
	switch to := cappedTo(out, c.state); {
	case out.clarify:
		mode = "clarify"
	case to != "":
		// upstream names the target the on_error depth cap refused, not
		// where the turn rests (conformance expect-error-mode-capped)
		if st, ok := fr.m.States[to]; strings.HasPrefix(to, "__exit__") || ok && st.Terminal {
			mode = "completed"
		}
	case fr.terminal(fr.sess, c.state):
		mode = "completed"
	}
	c.errorChecks(t.ExpectError, out.rej, fr.legacy, mode)
	fr.observeTurn(t, c.state, nil, "", out, false)
	if fr.legacy {
		// upstream's legacy path throws an accepted turn away: the next
		// turn starts where this one did, and the turn reports the state
		// its rig last recorded, a start path as written
		// (conformance legacy-error-state-written), read back from
		// there as written (a region's leaf listed last holding its
		// place), also after a refusal, which the machine alone would
		// reread sorted (par-emit-root-initial mf)
		tr.NewState = fr.rigState
		again := out.rej == nil || fr.sess.State() != fr.rigState
		if out.turn != nil && again && !fr.restart(ctx, t, fr.rigState, before) {
			return nil, false
		}
	}
	return fr.close(tr, c)
}

// cappedTo is the state turn.end names when it is not where the turn
// rests: the target an on_error chain's depth cap refused.
func cappedTo(out outcome, rest string) string {
	for i := len(out.evs) - 1; i >= 0; i-- {
		ev := out.evs[i]
		if ev.Kind != engine.KindTurnEnd {
			continue
		}
		p, _ := ev.payload.(map[string]any)
		if to, _ := p["to"].(string); to != rest {
			return to
		}
		return ""
	}
	return ""
}

// checkTurn runs a turn's expectations on what it landed on.
func (fr *fixtureRun) checkTurn(ctx context.Context, t *Turn, c *checker, tr *TurnResult, out outcome, sent, before map[string]any, jobsBefore map[string]string) {
	s := fr.sess
	c.rejected(t.Pos, out.rej, fr.legacy)
	state, world := tr.NewState, s.World()
	var views engine.ViewRenderer
	if fr.ld.Views != nil {
		views = fr.ld.Views
	}
	view := rigView(ctx, views, fr.ld.Machine, s, state, world, out.view, fr.legacy)
	tr.View = view
	if fr.ld.Views == nil && (t.ExpectViewMatches != nil || t.ExpectNoView) {
		c.fail(t.at("expect_view_matches"), "not supported yet: views (expect_view_matches / expect_no_view need the view renderer)")
		cp := *t // the view checks dropped
		cp.ExpectViewMatches, cp.ExpectNoView = nil, false
		t = &cp
	}
	fr.observeTurn(t, state, world, view, out, true)
	c.stateChecks(t, state)
	c.worldChecks(t, world, before, fr.legacy)
	// in upstream's order: events, host calls, the view, then slots
	c.eventChecks(t, out.evs, fr.legacy)
	c.hostCallChecks(t, out.evs, fr.legacy)
	if f := c.viewChecks(t, view); f != nil && fr.ld.Views != nil {
		// render the view again to say what it left out
		seen := map[string]bool{}
		warn := func(err error) {
			if msg := err.Error(); !seen[msg] {
				seen[msg] = true
				f.Message += "\nleft out: " + msg
			}
		}
		_, _ = fr.ld.Views.RenderView(state, world, map[string]any{expr.ContextKey: ctx, expr.WarnKey: warn})
	}
	c.slotChecks(t, sent)
	if !fr.legacy {
		// upstream's legacy runner reads neither
		c.inboxChecks(t, s.Inbox())
		c.jobChecks(t, jobsBefore, s.Jobs())
	}
}
