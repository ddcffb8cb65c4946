package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
)

// runEffects applies effects in order (reference §5.2). emit_intent effects
// are queued for the post-bind pass; an invoke whose when: passes and whose
// once: allows it is queued with the state and slots in force, to be
// dispatched after the machine step (dispatchCalls).
func (r *runner) runEffects(ctx context.Context, effs []*Effect, st *step) error {
	for _, e := range effs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted: %w", err)
		}
		if e.Emit != nil {
			st.emits = append(st.emits, pendingEmit{e: e, slots: r.slots, pre: r.emitNamesNow(e)})
		}
		if e.Kind == kindNone {
			continue
		}
		env := r.env(r.slots, nil)
		if e.When != nil {
			ok, err := e.When.eval(env)
			if err != nil {
				return fmt.Errorf("%s: %w", e.Pos, err)
			}
			if !ok {
				continue
			}
		}
		switch e.Kind {
		case kindSet:
			if err := r.applySet(e, env); err != nil {
				return err
			}
		case kindIncrement:
			if err := r.applyIncrement(e, env); err != nil {
				return err
			}
		case kindSay:
			s, err := e.Say.render(env)
			if err != nil {
				return fmt.Errorf("%s: say: %w", e.Pos, err)
			}
			if err := r.emit(KindSay, map[string]any{"text": s}); err != nil {
				return err
			}
			r.said = append(r.said, s)
			r.note(Note{Kind: "say", State: r.cur.Path, Text: s})
		case kindInvoke:
			queue, err := r.onceAllows(e)
			if err != nil {
				return err
			}
			if queue {
				pc := pendingCall{e: e, state: r.cur, slots: r.slots}
				if !r.oneShot && !e.Background {
					pc.world, _ = jsonvalue.Normalize(map[string]any(r.world)).(map[string]any)
				}
				st.calls = append(st.calls, pc)
				if !r.oneShot {
					// a session writes harness.called at walk time with the
					// args as they render now, and harness.dispatched when
					// the call goes out (story-runtime §1.7, §2.1)
					if err := r.emit(KindHarnessCalled, map[string]any{"args": r.walkArgs(e), "background": e.Background, "namespace": e.Invoke}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// applySet renders every value against the same pre-block world, then
// assigns them all. A string result for a key declared bool, int or float
// is coerced to that type (story-format §3.3).
func (r *runner) applySet(e *Effect, env map[string]any) error {
	vals := make([]any, len(e.Set))
	for i, kv := range e.Set {
		v, err := kv.Value.render(env)
		if err != nil {
			return fmt.Errorf("%s: set.%s: %w", e.Pos, kv.Key, err)
		}
		vals[i] = coerceDeclared(r.m.World, kv.Key, normalizeFresh(v))
	}
	// committed in sorted key order, one world.update per key
	// (story-runtime §1.7)
	order := make([]int, len(e.Set))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return e.Set[order[a]].Key < e.Set[order[b]].Key })
	for _, i := range order {
		kv := e.Set[i]
		if err := setPath(r.world, kv.Key, vals[i]); err != nil {
			return fmt.Errorf("%s: set.%s: %w", e.Pos, kv.Key, err)
		}
		if err := r.emit(KindWorldUpdate, map[string]any{"set": map[string]any{kv.Key: vals[i]}}); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) applyIncrement(e *Effect, env map[string]any) error {
	for _, kv := range e.Increment {
		dv, err := kv.Delta.render(env)
		if err != nil {
			return fmt.Errorf("%s: increment.%s: %w", e.Pos, kv.Key, err)
		}
		d, ok := asInt(dv)
		if !ok {
			return fmt.Errorf("%s: increment.%s: delta %v is not an integer", e.Pos, kv.Key, dv)
		}
		cur := getPath(r.world, kv.Key)
		n, ok := asInt(cur)
		if !ok && cur != nil {
			return fmt.Errorf("%s: increment.%s: world value %v is not an integer", e.Pos, kv.Key, cur)
		}
		if err := setPath(r.world, kv.Key, n+d); err != nil {
			return fmt.Errorf("%s: increment.%s: %w", e.Pos, kv.Key, err)
		}
		if err := r.emit(KindWorldUpdate, map[string]any{"increment": map[string]any{kv.Key: d}}); err != nil {
			return err
		}
	}
	return nil
}

func asInt(v any) (int, bool) {
	switch t := v.(type) {
	case int:
		return t, true
	case int64:
		return int(t), true
	case int32:
		return int(t), true
	case uint64:
		return int(t), true
	case float64:
		if t == math.Trunc(t) {
			return int(t), true
		}
	case json.Number:
		n, err := t.Int64()
		return int(n), err == nil
	case string:
		n, err := strconv.Atoi(t)
		return n, err == nil
	case nil:
		return 0, true
	}
	return 0, false
}

// onceAllows reports whether an invoke is to be queued: once: true with every
// bind key already set skips it (world.update skipped: cached, at walk time).
func (r *runner) onceAllows(e *Effect) (bool, error) {
	if e.Once && len(e.Bind) > 0 {
		all := true
		for _, b := range e.Bind {
			if isEmpty(getPath(r.world, b.Key)) {
				all = false
				break
			}
		}
		if all {
			keys := make([]string, len(e.Bind))
			for i, b := range e.Bind {
				keys[i] = b.Key
			}
			return false, r.emit(KindWorldUpdate, map[string]any{"skipped": "cached", "namespace": e.Invoke, "keys": keys})
		}
	}
	return true, nil
}

// invoke dispatches one queued host call with r.cur and r.slots set to the
// declaring state and its slots: with: rendered now (so earlier binds are
// visible), dispatch, bind, on_error.
func (r *runner) invoke(ctx context.Context, e *Effect) (*redirect, error) {
	var (
		args      map[string]any
		rc        *RenderedCall
		promptErr error
	)
	live := r.world
	if r.renderWorld != nil {
		// with: renders against the call's snapshot (dispatchCalls); the
		// live world is back before anything is dispatched or bound
		r.world = r.renderWorld
	}
	renderErr := func(err error) (*redirect, error) {
		r.world = live
		return nil, err
	}
	if isAgentHandler(e.Invoke) {
		// the one renderer pkg/eval uses too: the with: block, then the
		// prompt; a prompt that cannot be rendered is the call's failure
		var err error
		rc, err = r.m.rendererOf(e).RenderAgentCall(e.Invoke, e.ID, e.With, nil, r.callEnv())
		var re *RenderError
		if err != nil && errors.As(err, &re) && re.Stage == "prompt" {
			promptErr = err
		} else if err != nil {
			return renderErr(fmt.Errorf("%s: invoke %s: %w", e.Pos, e.Invoke, err))
		}
		args = rc.With
	} else {
		w, err := r.m.renderer().renderWith(e.With, e.ID, false, nil, r.env(r.slots, nil))
		if err != nil {
			return renderErr(fmt.Errorf("%s: invoke %s: with: %w", e.Pos, e.Invoke, err))
		}
		args = w
	}
	r.world = live
	// host/pre-call hooks run first, so harness.called records the args the
	// handler really receives (model-visible = logged); a halt is the
	// call's failure and takes the on_error path.
	var hookErr error
	if h := r.opts.HostHooks; h != nil && !isAgentHandler(e.Invoke) {
		if rewritten, err := h.HostPreCall(ctx, e.Invoke, args, r.emit); err != nil {
			hookErr = err
		} else {
			args = rewritten
		}
	}
	switch {
	case r.oneShot:
		if err := r.emit(KindHarnessCalled, map[string]any{"args": args, "background": e.Background, "namespace": e.Invoke}); err != nil {
			return nil, err
		}
	case !e.Background:
		if err := r.emitAt("", KindHarnessDispatched, map[string]any{"args": args, "background": false, "namespace": e.Invoke}); err != nil {
			return nil, err
		}
	}
	if e.Background && hookErr == nil {
		return nil, r.submit(ctx, e, args, rc, promptErr)
	}
	start := time.Now()
	var (
		hr     hostAnswer
		callID string
		err    error
	)
	if hookErr != nil {
		err = hookErr
	} else {
		hr, callID, err = r.dispatch(ctx, e, args, rc, promptErr)
	}
	dur := time.Since(start)
	res := hr.data
	sum := CallSummary{Handler: e.Invoke, ID: e.ID, CallID: callID, Agent: r.usedAgent(e, callID), State: r.cur.Path, Turn: r.turn,
		DurationMS: dur.Milliseconds(), OK: err == nil && hr.err == ""}
	if err != nil && ctx.Err() != nil {
		sum.Error = err.Error()
		r.calls = append(r.calls, sum)
		return nil, fmt.Errorf("run interrupted during %s: %w", e.Invoke, ctx.Err())
	}
	if err != nil {
		// infrastructure failure (story-runtime §2.3): last_error,
		// host_error {message, namespace}, harness.returned; no binds
		msg := err.Error()
		sum.Error = msg
		r.calls = append(r.calls, sum)
		r.note(Note{Kind: noteKind(e.Invoke), State: r.cur.Path, Text: callText(e, sum.Agent), Duration: dur, Error: msg})
		hostErr := map[string]any{"message": msg, "namespace": e.Invoke}
		var ae interface{ KindName() string }
		if errors.As(err, &ae) {
			hostErr["kind"] = ae.KindName()
		}
		if err := r.setError(msg, hostErr); err != nil {
			return nil, err
		}
		if err := r.emit(KindHarnessReturned, map[string]any{"error": msg, "namespace": e.Invoke}); err != nil {
			return nil, err
		}
		return r.failed(e, msg)
	}
	if hr.err != "" {
		sum.Error = hr.err
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
		if err := r.setError(hr.err, hostErr); err != nil {
			return nil, err
		}
	}
	r.calls = append(r.calls, sum)
	if meta, ok := res["meta"].(map[string]any); ok && isAgentHandler(e.Invoke) {
		if c, ok := meta["cost_usd"].(float64); ok && c > 0 {
			r.batchCost += c
		}
	}
	r.note(Note{Kind: noteKind(e.Invoke), State: r.cur.Path, Text: callText(e, sum.Agent) + resultText(e.Invoke, res), Duration: dur, Error: hr.err})
	// a session writes the binds, then harness.returned (upstream's order,
	// story-runtime §2.3); kitsoki run writes harness.returned first (its
	// trace golden, docs/compat/engine.md)
	ret := map[string]any{"namespace": e.Invoke}
	if res != nil {
		ret["data"] = res
	}
	if hr.err != "" {
		ret["error"] = hr.err
	}
	if !r.oneShot {
		if err := r.bindResult(e, res); err != nil {
			return nil, err
		}
	}
	if err := r.emit(KindHarnessReturned, ret); err != nil {
		return nil, err
	}
	if r.oneShot {
		if err := r.bindResult(e, res); err != nil {
			return nil, err
		}
	}
	if hr.err != "" {
		return r.failed(e, hr.err)
	}
	return nil, nil
}

// setError records a failed call in world.last_error and world.host_error.
func (r *runner) setError(msg string, hostErr map[string]any) error {
	r.world["last_error"] = msg
	r.world["host_error"] = hostErr
	r.bound = true // an applied error re-renders like a bind (story-runtime §2.3)
	if err := r.emit(KindWorldUpdate, map[string]any{"set": map[string]any{"last_error": msg}}); err != nil {
		return err
	}
	return r.emit(KindWorldUpdate, map[string]any{"set": map[string]any{"host_error": jsonvalue.Normalize(hostErr)}})
}

// failed decides what a failed call does: with on_error, a redirect; a
// one-shot run without one fails; a session goes on with the batch
// (story-runtime §2.3).
func (r *runner) failed(e *Effect, msg string) (*redirect, error) {
	if e.OnError != "" {
		return &redirect{from: e.owner, target: e.OnError, err: msg}, nil
	}
	if r.oneShot {
		return nil, fmt.Errorf("%s: invoke %s failed: %s (add on_error: <state> to the effect to handle it)", e.Pos, e.Invoke, msg)
	}
	return nil, nil
}

// bindResult applies an effect's binds (sorted by world key, one
// world.update each). A path bind on a missing result path leaves the
// world value untouched; a template bind applies even without data.
func (r *runner) bindResult(e *Effect, res map[string]any) error {
	binds := append([]bindKV(nil), e.Bind...)
	sort.SliceStable(binds, func(i, j int) bool { return binds[i].Key < binds[j].Key })
	for _, b := range binds {
		var v any
		if b.Tmpl != nil {
			x, err := b.Tmpl.render(r.env(r.slots, map[string]any{"result": res}))
			if err != nil {
				r.note(Note{Kind: "host", State: r.cur.Path, Error: fmt.Sprintf("%s: bind.%s: %v", e.Pos, b.Key, err)})
				continue
			}
			v = x
		} else {
			if res == nil {
				continue
			}
			segs, err := parsePath(b.Path)
			if err != nil {
				return fmt.Errorf("%s: bind.%s: %w", e.Pos, b.Key, err)
			}
			x, ok := lookupPath(res, segs)
			if !ok {
				continue
			}
			v = x
		}
		v = jsonvalue.Normalize(normalizeFresh(v))
		if err := setPath(r.world, b.Key, v); err != nil {
			return fmt.Errorf("%s: bind.%s: %w", e.Pos, b.Key, err)
		}
		r.bound = true
		r.batchBound = append(r.batchBound, b.Key)
		if err := r.emit(KindWorldUpdate, map[string]any{"set": map[string]any{b.Key: v}}); err != nil {
			return err
		}
	}
	return nil
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
			b, _ := json.Marshal(sub)
			s := string(b)
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

// emitNamesNow reports whether an emit_intent entry names an intent with
// the world as it is at walk time (before the step's calls bind).
func (r *runner) emitNamesNow(e *Effect) bool {
	env := r.env(r.slots, nil)
	if e.When != nil {
		if ok, err := e.When.eval(env); err != nil || !ok {
			return false
		}
	}
	v, err := e.Emit.render(env)
	return err == nil && strings.TrimSpace(toString(v)) != ""
}

// walkArgs renders an invoke's with: as it stands at walk time (the
// machine-time args of harness.called); a template that cannot render yet
// keeps its source.
func (r *runner) walkArgs(e *Effect) map[string]any {
	w, err := r.m.rendererOf(e).renderWith(e.With, e.ID, isAgentHandler(e.Invoke), nil, r.env(r.slots, nil))
	if err != nil {
		if m, ok := jsonvalue.Normalize(e.With).(map[string]any); ok {
			return m
		}
		return map[string]any{}
	}
	return w
}
