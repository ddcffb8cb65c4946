package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kitsoki/pkg/story"
)

// runEffects applies effects in order (reference §5.2). An emit_intent
// entry is decided where the chain reaches it (walkEmit); an invoke whose when: passes and whose
// once: allows it is queued with the state and slots in force, to be
// dispatched after the machine step (dispatchCalls).
func (r *runner) runEffects(ctx context.Context, effs []*Effect, st *step) error {
	r.t.sayChain++ // a say: of this list joins its chain's narration (joinSaid)
	for _, e := range effs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted: %w", err)
		}
		if e.Emit != nil && (e.Kind == kindNone || r.t.emitsOnly) {
			n := len(st.emits)
			if err := r.walkEmit(e, st); err != nil {
				return err
			}
			if e.Kind == kindNone && len(st.emits) > n {
				r.reach(ReachEffect, e.Pos)
			}
		}
		if e.Kind == kindNone && e.Emit == nil && !r.t.emitsOnly {
			// an entry of no kind (an emit: alone, an on_complete
			// target, a bare when:) still has its when: evaluated, as
			// every entry but an emit_intent one upstream: one that
			// cannot be evaluated fails the chain (conformance
			// effect-when-no-kind)
			if _, err := e.When.eval(r.env(r.slots, nil)); err != nil {
				return fmt.Errorf("%s: %w", e.Pos, err)
			}
		}
		if e.Kind == kindNone || r.t.emitsOnly {
			// leaving a parallel configuration, an entry's emit_intent
			// alone runs (conformance par-leave-two-kind)
			continue
		}
		env := r.env(r.slots, nil)
		ok, err := e.When.eval(env) // no when: passes
		if err != nil && e.Emit != nil {
			// an entry carrying emit_intent is an emit_intent entry
			// upstream, whatever else it carries: a when: that cannot be
			// evaluated skips it whole and the chain goes on
			// (conformance emit-entry-when-error)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", e.Pos, err)
		}
		if !ok {
			continue
		}
		if e.Kind != kindInvoke {
			r.reach(ReachEffect, e.Pos)
		}
		cached := false
		switch e.Kind {
		case kindSet:
			err = r.applySet(e, env)
		case kindIncrement:
			err = r.applyIncrement(e, env)
		case kindSay:
			err = r.applySay(e, env)
		case kindInvoke:
			cached, err = r.queueInvoke(e, st)
		}
		if err != nil {
			return err
		}
		if e.Emit != nil && !cached {
			// a call once: skips takes its entry's hop with it; a
			// resting state's on_enter decides it again after the binds
			// (postBind) (conformance once-cached-emit)
			// the entry's hop renders against the world its own kind
			// left (conformance emit-entry-after-kind), under the when:
			// read before the kind ran (emit-entry-when-once)
			if err := r.decideEmit(e, r.env(r.slots, nil), st); err != nil {
				return err
			}
		}
	}
	return nil
}

// applySay writes a say: entry's text and keeps it for the turn's view.
func (r *runner) applySay(e *Effect, env map[string]any) error {
	s, err := e.Say.render(sayEnv(env))
	if err != nil {
		return fmt.Errorf("%s: say: %w", e.Pos, err)
	}
	if err := r.emit(KindSay, map[string]any{"text": s}); err != nil {
		return err
	}
	r.t.said = append(r.t.said, sayLine{text: s, chain: r.t.sayChain})
	r.note(Note{Kind: "say", State: r.cur.Path, Text: s})
	return nil
}

// queueInvoke queues an invoke on st, once: allowing, and writes
// harness.called; cached: once: skipped it.
func (r *runner) queueInvoke(e *Effect, st *step) (cached bool, err error) {
	queue, err := r.onceAllows(e)
	if err != nil || !queue {
		return !queue, err
	}
	r.reach(ReachEffect, e.Pos)
	st.binds = st.binds || len(e.Bind) > 0
	if !r.so.MachineOnly { // the machine alone writes the call, never queues it
		pc := pendingCall{e: e, state: r.cur, slots: r.slots}
		if !e.Background {
			pc.world = r.world.Snapshot()
		}
		st.calls = append(st.calls, pc)
	}
	// written at walk time; harness.dispatched when the call goes out (§2.1)
	args, err := r.walkArgs(e)
	if err != nil {
		// upstream's machine renders with: as it walks the effect and
		// fails the step, on either path, even where an earlier call's
		// bind would let it render at dispatch (conformance
		// legacy-with-eval-error, with-walk-error)
		return false, fmt.Errorf("%s: invoke %s: with: %w", e.Pos, e.Invoke, err)
	}
	return false, r.emit(KindHarnessCalled, map[string]any{"args": args, "background": e.Background, "namespace": e.Invoke})
}

// applySet renders every value against the same pre-block world, then
// assigns them all. A string result for a key declared bool, int or float
// is coerced to that type (story-format §3.3; coerceSet).
func (r *runner) applySet(e *Effect, env map[string]any) error {
	type assign struct {
		key  string
		v    any
		lost bool // a value no JSON holds (lostSet)
	}
	vals := make([]assign, len(e.Set))
	for i, kv := range e.Set {
		v, world, err := kv.Value.renderWorld(env)
		if world && err == nil {
			err = &nonFiniteError{world: true}
		}
		if err == nil {
			err = finite(v) // a literal .nan (conformance yaml-non-finite)
		}
		var nf *nonFiniteError
		lost := errors.As(err, &nf) && !r.so.Strict
		if lost {
			err = nil // the log loses it (lostSet)
		}
		if err != nil {
			return fmt.Errorf("%s: set.%s: %w", e.Pos, kv.Key, err)
		}
		vals[i] = assign{kv.Key, normalizeFresh(v), lost}
	}
	// one world.update per key, in key order (story-runtime §1.7)
	slices.SortStableFunc(vals, func(a, b assign) int { return strings.Compare(a.key, b.key) })
	for _, a := range vals {
		if a.lost {
			if err := r.lostSet(a.key, a.v); err != nil {
				return err
			}
			continue
		}
		mem, rec, coerced := r.coerceSet(a.key, a.v)
		setPath(r.world, a.key, mem)
		if r.t.landView != nil {
			setPath(r.t.landView, a.key, mem)
		}
		r.journalAs(a.key, rec, coerced)
		if f, inexact := inexactInt(rec); inexact && !coerced {
			r.journalAs(a.key, f, true) // conformance increment-big-replay
		}
		if err := r.emitSet(a.key, rec); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) applyIncrement(e *Effect, env map[string]any) error {
	for _, kv := range e.Increment {
		dv, err := kv.Value.render(env)
		if err != nil {
			return fmt.Errorf("%s: increment.%s: %w", e.Pos, kv.Key, err)
		}
		d, ok := incrementDelta(dv)
		if !ok {
			return fmt.Errorf("%s: increment.%s: delta %v is not an integer", e.Pos, kv.Key, dv)
		}
		cur := getPath(r.world, kv.Key)
		n := incrementBase(cur)
		if r.so.Strict {
			var ok bool
			if n, ok = asInt(cur); !ok && cur != nil {
				return fmt.Errorf("%s: increment.%s: world value %v is not an integer (--strict)", e.Pos, kv.Key, cur)
			}
		}
		setPath(r.world, kv.Key, n+d)
		if r.t.landView != nil {
			setPath(r.t.landView, kv.Key, incrementBase(getPath(r.t.landView, kv.Key))+d)
		}
		if j, ok := r.journal[kv.Key]; ok {
			r.journalAs(kv.Key, incrementBase(r.loggedBase(kv.Key, j))+d, true)
		}
		if err := r.emit(KindWorldUpdate, map[string]any{"increment": map[string]any{kv.Key: d}}); err != nil {
			return err
		}
	}
	return nil
}

// inexactInt reports whether v is a whole number no float64 holds
// exactly (past 2^53), with the float64 the log's JSON gives it.
func inexactInt(v any) (float64, bool) {
	var n int64
	switch t := v.(type) {
	case int:
		n = int64(t)
	case int64:
		n = t
	case uint64:
		if t > math.MaxInt64 {
			return 0, false
		}
		n = int64(t)
	default:
		return 0, false
	}
	f := float64(n)
	return f, f >= 1<<63 || int64(f) != n
}

// incrementDelta is an increment's delta as the existing engine's loader
// reads it: an integer or a numeric string as it is, a float truncated toward
// zero (1.5 adds 1, -1.5 adds -1; validate warns about both).
func incrementDelta(v any) (int, bool) {
	if f, ok := v.(float64); ok { // conformance increment-big
		n, _, ok := story.IncrementFloat(f)
		return n, ok
	}
	if s, ok := v.(string); ok { // conformance increment-text
		return story.IncrementText(s)
	}
	return asInt(v)
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
	if !e.Once || len(e.Bind) == 0 || slices.ContainsFunc(e.Bind, func(b bindKV) bool { return IsEmpty(getPath(r.world, b.Key)) }) {
		return true, nil
	}
	keys := make([]string, len(e.Bind))
	for i, b := range e.Bind {
		keys[i] = b.Key
	}
	return false, r.emit(KindWorldUpdate, map[string]any{"skipped": "cached", "namespace": e.Invoke, "keys": keys})
}
