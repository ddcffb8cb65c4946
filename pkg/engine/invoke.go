package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// invoke dispatches one queued host call with r.cur and r.slots set to the
// declaring state and its slots: with: rendered now (so earlier binds are
// visible), dispatch, bind, on_error.
func (r *runner) invoke(ctx context.Context, e *Effect) (*redirect, error) {
	args, rc, promptErr, err := r.renderInvoke(e)
	if err != nil {
		return nil, err
	}
	if e.Background && e.hasCompleteNF {
		return nil, r.onCompleteRefused(e.completeNF)
	}
	args, hookErr := r.hostPreCall(ctx, e, args)
	if err := r.announceCall(e, args); err != nil {
		return nil, err
	}
	if e.Background && hookErr == nil {
		return nil, r.submit(e, args, rc, promptErr)
	}
	start := time.Now()
	var (
		hr     hostAnswer
		callID string
	)
	err = hookErr
	if err == nil {
		hr, callID, err = r.dispatchGuarded(ctx, e, args, rc, promptErr)
	}
	dur := time.Since(start)
	sum := CallSummary{Handler: e.Invoke, ID: e.ID, CallID: callID, Agent: r.usedAgent(e, callID), State: r.cur.Path, Turn: r.turn,
		DurationMS: dur.Milliseconds(), OK: err == nil && hr.err == ""}
	if err != nil {
		return r.callFailed(ctx, e, sum, dur, err)
	}
	return r.callAnswered(e, sum, dur, hr)
}

// renderInvoke renders a call's with: block against the call's snapshot
// (overlayBatch), and for an agent call its prompt, whose failure is
// promptErr (the call's failure, not err).
func (r *runner) renderInvoke(e *Effect) (args map[string]any, rc *RenderedCall, promptErr, err error) {
	args, rc, promptErr, err = r.renderInvokeOnce(e)
	if r.t.walkWorld == nil || r.t.renderWorld == nil {
		return args, rc, promptErr, err
	}
	if err == nil {
		// an id that cannot render at dispatch goes out as written, and
		// upstream counts that as a fall-back too (conformance
		// rerender-id-falls-back)
		if _, ok := r.callIDAtDispatch(e); !ok {
			r.t.fellBack = true
		}
		return args, rc, promptErr, err
	}
	// a with: that fails at dispatch falls back to the walk-time args
	// (conformance with-rerender-falls-back); the call id still renders
	// against the dispatch world
	overlay := r.t.renderWorld
	id, _ := r.callIDAtDispatch(e)
	r.t.renderWorld = r.t.walkWorld.Snapshot()
	r.seedDispatch()
	defer func() { r.t.renderWorld = overlay }()
	a2, rc2, pe2, err2 := r.renderInvokeOnce(e)
	if err2 != nil {
		return args, rc, promptErr, err
	}
	r.t.fellBack = true
	if e.ID != "" && a2 != nil {
		a2["call"] = id
	}
	return a2, rc2, pe2, nil
}

// callIDAtDispatch renders e's id against the dispatch world, ok false
// when it cannot be rendered (kept as written).
func (r *runner) callIDAtDispatch(e *Effect) (string, bool) {
	live := r.world
	r.world = r.t.renderWorld
	defer func() { r.world = live }()
	return renderCallIDOK(e.ID, r.env(r.slots, nil))
}

// renderInvokeOnce renders a call's with: (and prompt) against the
// call's snapshot, as renderInvoke describes.
func (r *runner) renderInvokeOnce(e *Effect) (args map[string]any, rc *RenderedCall, promptErr, err error) {
	live := r.world
	if r.t.renderWorld != nil {
		r.world = r.t.renderWorld
	}
	defer func() { r.world = live }()
	if !isAgentHandler(e.Invoke) {
		env := r.env(r.slots, nil)
		w, err := r.m.renderer().renderWith(e.With, renderCallID(e.ID, env), e.ID != "", nil, env)
		if err == nil {
			err = r.strictArgs(w)
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: invoke %s: with: %w", e.Pos, e.Invoke, err)
		}
		return w, nil, nil, nil
	}
	ce := r.callEnv()
	ce.Plugin = e.Agent != ""
	rc, err = r.m.rendererOf(e).RenderAgentCall(e.Invoke, e.ID, e.With, nil, ce)
	if rc != nil {
		if serr := r.strictArgs(rc.With); serr != nil {
			return nil, nil, nil, fmt.Errorf("%s: invoke %s: with: %w", e.Pos, e.Invoke, serr)
		}
	}
	var re *RenderError
	if err != nil && errors.As(err, &re) && re.Stage == "prompt" {
		promptErr = err
	} else if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: invoke %s: %w", e.Pos, e.Invoke, err)
	}
	return rc.With, rc, promptErr, nil
}

// hostPreCall runs the host/pre-call hooks of a host (not agent) call
// first, so harness.called records the args the handler really receives
// (model-visible = logged); a halt is returned as the call's failure and
// takes the on_error path.
func (r *runner) hostPreCall(ctx context.Context, e *Effect, args map[string]any) (map[string]any, error) {
	h := r.so.HostHooks
	if h == nil || isAgentHandler(e.Invoke) {
		return args, nil
	}
	rewritten, err := h.HostPreCall(ctx, e.Invoke, args, r.emit)
	if err != nil {
		return args, err
	}
	return rewritten, nil
}

// announceCall writes harness.dispatched before a foreground call is made
// (its harness.called was written at walk time); a background call writes
// nothing here.
func (r *runner) announceCall(e *Effect, args map[string]any) error {
	if e.Background {
		return nil
	}
	// upstream's shape (trace-eval.md A)
	return r.emitAt("", KindHarnessDispatched, map[string]any{"args": args, "background": false, "namespace": e.Invoke, "rerender_fell_back": r.t.fellBack})
}

// callFailed records a call that brought no answer: an interrupted run
// stops; an infrastructure failure (story-runtime §2.3) sets last_error and
// host_error {message, namespace}, writes harness.returned, binds nothing
// and takes the on_error path.
func (r *runner) callFailed(ctx context.Context, e *Effect, sum CallSummary, dur time.Duration, err error) (*redirect, error) {
	msg := err.Error()
	sum.Error = msg
	r.calls = append(r.calls, sum)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("run interrupted during %s: %w", e.Invoke, ctx.Err())
	}
	r.note(Note{Kind: noteKind(e.Invoke), State: r.cur.Path, Text: callText(e, sum.Agent), Duration: dur, Error: msg})
	hostErr := map[string]any{"message": msg, "namespace": e.Invoke}
	var ae interface{ KindName() string }
	if errors.As(err, &ae) {
		hostErr["kind"] = ae.KindName()
	}
	if e.OnError == "" {
		// the render from before it, which an empty re-render leaves
		// standing (conformance infra-error-empty-rerender)
		r.keepFirst()
		r.t.rerender, r.t.applied, r.t.submitOnly = true, true, false
	}
	if err := r.setError(msg, hostErr); err != nil {
		return nil, err
	}
	if err := r.emit(KindHarnessReturned, panicStack(map[string]any{"error": msg, "namespace": e.Invoke}, err)); err != nil {
		return nil, err
	}
	return r.failed(e, msg)
}

// callAnswered records a call's answer: a domain error sets last_error and
// host_error (with the data, stderr and exit code), an agent's cost is
// added to the batch, then the binds and harness.returned are written and
// a failed answer takes the on_error path.
func (r *runner) callAnswered(e *Effect, sum CallSummary, dur time.Duration, hr hostAnswer) (*redirect, error) {
	res := hr.data
	if hr.err != "" {
		sum.Error = hr.err
		if err := r.setError(hr.err, answerError(e, hr)); err != nil {
			return nil, err
		}
	}
	r.calls = append(r.calls, sum)
	r.t.batchCost += hr.cost
	r.note(Note{Kind: noteKind(e.Invoke), State: r.cur.Path, Text: callText(e, sum.Agent) + resultText(e.Invoke, res), Duration: dur, Error: hr.err})
	bound, err := r.bindAndReturn(e, hr)
	if err != nil {
		return nil, err
	}
	if hr.err != "" {
		// an error answer whose binds wrote no key (no data, or none at
		// a bind's path), or any to a call that stays (on_error "."):
		// upstream's turn keeps no render before a post-bind pass
		// (keepPrePass; conformance postpass-failed-bind-dot-stay; one that
		// names no state: takeRedirect)
		r.t.failedBind = r.t.failedBind || len(e.Bind) > 0 && (e.OnError == "" && !bound || e.OnError == ".")
		return r.failed(e, hr.err)
	}
	return nil, nil
}

// answerError is world.host_error for an answer that carries an error.
func answerError(e *Effect, hr hostAnswer) map[string]any {
	res := hr.data
	hostErr := map[string]any{"message": hr.err, "namespace": e.Invoke}
	if res != nil {
		hostErr["data"] = jsonvalue.Normalize(res)
		if v, ok := res["stderr"]; ok {
			hostErr["stderr"] = v
		}
		if v, ok := res["exit_code"]; ok {
			hostErr["exit_code"] = v
		}
	}
	return hostErr
}

// bindAndReturn applies the binds, then writes harness.returned
// (upstream's order, story-runtime §2.3); bound says whether a bind wrote
// a key.
func (r *runner) bindAndReturn(e *Effect, hr hostAnswer) (bound bool, err error) {
	res := hr.data
	ret := map[string]any{"namespace": e.Invoke}
	if res != nil {
		ret["data"] = res
	}
	if hr.err != "" {
		ret["error"] = hr.err
	}
	if bound, err = r.bindResult(e, res); err != nil {
		return false, err
	}
	return bound, r.emit(KindHarnessReturned, ret)
}

// setError records a failed call in world.last_error and world.host_error.
func (r *runner) setError(msg string, hostErr map[string]any) error {
	r.keepFirst()
	r.world[story.WorldLastError] = msg
	r.world[story.WorldHostError] = hostErr
	if err := r.emitSet(story.WorldLastError, msg); err != nil {
		return err
	}
	return r.emitSet(story.WorldHostError, jsonvalue.Normalize(hostErr))
}

// emitSet writes the world.update of one set key.
func (r *runner) emitSet(key string, v any) error {
	return r.emit(KindWorldUpdate, map[string]any{"set": map[string]any{key: v}})
}

// failed decides what a failed call does: with on_error, a redirect;
// without one the turn goes on with the batch, last_error set
// (story-runtime §2.3).
func (r *runner) failed(e *Effect, msg string) (*redirect, error) {
	if e.OnError != "" {
		return &redirect{e: e, err: msg}, nil
	}
	return nil, nil
}

// bindResult applies an effect's binds (sorted by world key, one
// world.update each). A path bind on a missing result path leaves the
// world value untouched; a template bind applies even without data.
func (r *runner) bindResult(e *Effect, res map[string]any) (bound bool, err error) {
	binds := slices.Clone(e.Bind)
	slices.SortStableFunc(binds, func(a, b bindKV) int { return strings.Compare(a.Key, b.Key) })
	for _, b := range binds {
		var v any
		var world bool // the value holds the live world (lostSet)
		if b.Tmpl != nil {
			var nf *nonFiniteError
			if v, world, err = b.Tmpl.renderWorld(r.env(r.slots, map[string]any{"result": res})); errors.As(err, &nf) {
				err = nil // bound as rendered, lost to the log (bindKeyLost; conformance bind-template-non-finite); --strict refuses it (strictBind)
			}
			if err != nil {
				r.note(Note{Kind: "host", State: r.cur.Path, Error: fmt.Sprintf("%s: bind.%s: %v", e.Pos, b.Key, err)})
				continue
			}
			if m, ok := v.(map[string]any); ok && len(m) == 0 && res == nil {
				// the world holds a nil map for the turn, the log null
				// (conformance host-bind-answer-errors, host-bind-nil-live)
				if err := r.bindKey(b.Key, map[string]any(nil), nil, true); err != nil {
					return bound, err
				}
				bound = true
				continue
			}
		} else if x, ok := LookupBindPath(res, b.Path); ok {
			v = x
		} else {
			continue // no such path (or no data): the key is left as it is
		}
		v = jsonvalue.Normalize(normalizeFresh(v))
		if err := r.strictBind(v, world); err != nil {
			return bound, fmt.Errorf("%s: bind.%s: %w", e.Pos, b.Key, err)
		}
		if err := r.bindKeyLost(b.Key, v, v, false, world); err != nil {
			return bound, err
		}
		bound = true
	}
	return bound, nil
}

func noteKind(handler string) string {
	if isAgentHandler(handler) {
		return "agent"
	}
	return "host"
}

func callText(e *Effect, agent string) string {
	s := e.Invoke
	if e.ID != "" {
		s += " [" + e.ID + "]"
	}
	if agent != "" {
		s += " via " + agent
	}
	return s
}

func resultText(handler string, res map[string]any) string {
	if isAgentHandler(handler) {
		if sub, ok := res["submitted"]; ok {
			s := string(jsonvalue.MarshalPrefix(sub, 160)) // not the whole of a big answer
			if len(s) > 160 {
				s = s[:157] + "..."
			}
			return " → " + s
		}
		return ""
	}
	if c, ok := res["exit_code"]; ok {
		return fmt.Sprintf(" → exit %v", c)
	}
	return ""
}

// walkArgs renders an invoke's with: as it stands at walk time (the
// machine-time args of harness.called); its error fails the step.
func (r *runner) walkArgs(e *Effect) (map[string]any, error) {
	w, err := r.m.rendererOf(e).renderWith(e.With, e.ID, e.ID != "", nil, r.env(r.slots, nil))
	if err == nil {
		err = r.strictArgs(w)
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// strictArgs refuses, under --strict only, a call's rendered with:
// holding an infinite or NaN number, which no JSON value can carry to a
// plugin; upstream passes it on (conformance with-non-finite).
func (r *runner) strictArgs(w map[string]any) error {
	if !r.so.Strict {
		return nil
	}
	return finite(w)
}

// strictBind refuses, under --strict only, a bind's value holding an
// infinite or NaN number or the live world, as applySet refuses a set's:
// without --strict both are bound for the turn and lost to the log
// (lostSet; conformance bind-non-finite-logged, bind-template-non-finite).
func (r *runner) strictBind(v any, world bool) error {
	if !r.so.Strict {
		return nil
	}
	if world {
		return &nonFiniteError{world: true}
	}
	return finite(v)
}

// bindKey binds key: mem in the world, rec in its world.update and, when
// the two differ, in the journal. A non-finite value is lost to the log
// (lostSet; conformance bind-non-finite-logged).
func (r *runner) bindKey(key string, mem, rec any, differ bool) error {
	return r.bindKeyLost(key, mem, rec, differ, false)
}

// bindKeyLost is bindKey for a value also lost to the log when world (a
// bind template's `{{ world }}`: conformance bind-template-non-finite).
func (r *runner) bindKeyLost(key string, mem, rec any, differ, world bool) error {
	r.t.rerender, r.t.applied, r.t.dropSay, r.t.submitOnly = true, true, true, false
	r.t.batchBound = append(r.t.batchBound, key)
	if world || finite(mem) != nil { // --strict refused it (strictBind)
		return r.lostSet(key, mem)
	}
	setPath(r.world, key, mem)
	r.journalAs(key, rec, differ)
	return r.emitSet(key, rec)
}
