package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kitsoki/internal/duration"
	"kitsoki/internal/sleep"
	"kitsoki/pkg/story"
)

// armedTimeout is the pending timeout of the resting state.
type armedTimeout struct {
	state    string // the encoded state it was armed for
	owner    *State // its Timeout is the one armed
	after    string
	d        time.Duration
	deadline time.Time
}

// arm re-arms the timeout of the resting configuration with a fresh
// deadline: only the resting state's own (a parallel root's in a
// configuration), as upstream (story-runtime §4; docs/compat/engine.md
// "Which timeout counts").
func (r *runner) arm() {
	r.timer = nil
	if r.ended || r.cur == nil {
		return
	}
	owner := r.cur
	if r.par != nil {
		owner = r.par.root
	}
	r.armFor(owner, r.statePath())
}

// armOrigin arms, after a swallowed on_error chain, the timeout of the
// originating state (origin), where upstream's machine stays: it names
// that state, so it fires only when the session rests there (conformance
// cap-origin-timer). A parallel, terminal or timeout-less origin arms
// nothing, and the timeout armed before the turn is gone too, though the
// chain left the session on the state it names (conformance
// swallowed-redirect-timer, swallowed-disarms).
func (r *runner) armOrigin(origin string) {
	s := r.m.States[origin]
	if r.ended {
		return
	}
	r.timer = nil
	if s == nil || s.Timeout == nil || s.Parallel || s.Terminal && len(s.Children) == 0 {
		return
	}
	r.armFor(s, origin)
}

// armFor arms owner's timeout for the encoded state at.
func (r *runner) armFor(owner *State, at string) {
	if owner.Timeout == nil {
		return
	}
	if owner.Timeout.After.templated() { // conformance timeout-after-template
		err := fmt.Errorf("%s: state %q: timeout.after %q is a template, which is not rendered: the timeout never arms", owner.Timeout.Pos, owner.Path, owner.Timeout.After.src)
		r.note(Note{Kind: "timeout", State: owner.Path, Error: err.Error()})
		return
	}
	after, err := owner.Timeout.After.render(r.env(nil, nil))
	if err == nil {
		var d time.Duration
		if d, err = duration.Parse(after); err == nil && d == 0 {
			// "0s", "0.5ns", "1e-20d": upstream arms nothing
			// (arm_invalid_after; conformance timeout-after-zero)
			err = fmt.Errorf("%q is zero: the timeout never arms", after)
		} else if err == nil {
			r.timer = &armedTimeout{state: at, owner: owner, after: strings.TrimSpace(after), d: d, deadline: r.now().Add(d)}
			return
		}
	}
	err = fmt.Errorf("%s: state %q: timeout.after: %w", owner.Timeout.Pos, owner.Path, err)
	r.note(Note{Kind: "timeout", State: owner.Path, Error: err.Error()})
}

// wait blocks for d or until ctx ends.
func (r *runner) wait(ctx context.Context, d time.Duration) error {
	if r.so.Wait != nil {
		return r.so.Wait(ctx, d)
	}
	return sleep.For(ctx, d)
}

// timeoutTurn fires the armed timeout as one synthetic turn
// (story-runtime §4). A target DeadTimeoutTarget names is dropped with a
// note, as upstream.
func (r *runner) timeoutTurn(ctx context.Context) (*Turn, error) {
	tm := r.timer
	r.timer = nil
	if tm == nil || tm.state != r.statePath() {
		return nil, nil
	}
	if src := tm.owner.Timeout.Target.src; DeadTimeoutTarget(src) {
		r.note(Note{Kind: "timeout", State: tm.state, Error: fmt.Sprintf("%s: state %q: timeout.target %q is relative, templated or written with slashes: it never fires (as in the existing engine, which looks the target up as written)", tm.owner.Timeout.Pos, tm.owner.Path, src)})
		return nil, nil
	}
	from, sv, t := r.beginSyntheticTurn()
	if err := r.emit(KindTurnStart, map[string]any{"kind": "timeout", "source": from, "turn": r.turn}); err != nil {
		return t, err
	}
	res, err := r.resolveTarget(tm.owner, "", tm.owner.Timeout.Target, false)
	if err != nil {
		return r.failTurn(t, from, sv, fmt.Errorf("%s: state %q: timeout.target: %w", tm.owner.Timeout.Pos, tm.owner.Path, err), nil)
	}
	r.reach(ReachTimeout, tm.owner.Timeout.Pos)
	r.note(Note{Kind: "timeout", State: from, Text: fmt.Sprintf("timeout of %s after %s → %s", tm.owner.Path, tm.after, res.describe()), To: res.describe()})
	if err := r.emit(KindTimeout, map[string]any{"from": from, "to": r.landTo(res)}); err != nil {
		return t, err
	}
	if err := r.emit(KindTransition, map[string]any{"from": from, "intent": "__timeout__", "to": r.landTo(res)}); err != nil {
		return t, err
	}
	var st step
	err = r.land(ctx, res, &st, r.statePath())
	// a timeout that takes an exit itself stops the notifications as a
	// user turn's exit does; one an emit_intent hop after it takes does
	// not (conformance oncomplete-exit-hop-notice)
	exited := r.ended && r.outcome == OutcomeExit
	// a timeout that lands on a terminal state stops upstream's job
	// listener and arms nothing, even when that state's on_enter then
	// moves the session on (an on_error redirect, an emit_intent hop);
	// a user turn counts where it rests (conformance
	// timeout-terminal-listener)
	terminal := err == nil && !exited && r.terminalAt() != nil
	if err == nil {
		err = r.settleSynthetic(ctx, &st)
	}
	if err != nil {
		return r.failTurn(t, from, sv, err, nil)
	}
	r.turnExited = r.turnExited || exited
	if terminal {
		// no job is heard: upstream lands the timeout before the jobs due
		// in the same advance
		r.listenerGone, r.timer = true, nil
	} else {
		r.arm()
	}
	return r.closeTurn(t, from, map[string]any{"outcome": "timeout", "to": r.statePath()})
}

// DeadTimeoutTarget reports whether a timeout target, as the fold left
// it, names no state when looked up as written: a relative path, a
// template (story-runtime §4 ⚠, probe testdata/conformance/clock/child)
// or a path written with slashes, which only an arm's, on_error's and
// on_complete's lookup turns into dots (conformance timeout-slash-target).
func DeadTimeoutTarget(src string) bool {
	return src == "" || strings.HasPrefix(src, ".") || strings.Contains(src, "/") || story.IsTemplated(src)
}
