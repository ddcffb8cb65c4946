package flowtest

import (
	"fmt"
	"maps"
	"slices"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// A fixture slot that is a YAML whole number not negative reaches a
// handler as the existing engine's uint64 when a call's with: reads it
// whole ("{{ slots.n }}") in the turn that sends it: on the arm its intent
// takes or in the on_enter its move enters. The real host.run refuses one
// as its timeout or an args element, and host.starlark.run as any input,
// so under host_bindings (no stub serving the handler) the call certainly
// fails, binding nothing (conformance run-int-uint64 slot, slotnum,
// slotstr, slotany, slottmo, kid; star-uint64; lint-slot-uint).
// pkg/lint's host-run-int sees the literals and world defaults; the
// fixture's slots only the settle walk sees.

// wholeSlotRe is a with: value that is one slot read whole.
var wholeSlotRe = &lazyre.Regexp{Expr: `^\{\{\s*slots\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$`}

// slotRefusal is a call a handler certainly refuses: the handler's
// words, where the slot reaches it, and the slot.
type slotRefusal struct {
	msg, at, fix string
	pos          story.Pos
	slot         KV
}

// slotUintRefusal is the refusal call e, queued by turn t's own chain
// (nil in a hop or a completion turn, whose slots are not the
// fixture's), certainly meets; ok is false when e is not certainly
// refused.
func (l *fixtureLint) slotUintRefusal(e *story.Effect, t *Turn) (r slotRefusal, ok bool) {
	fx := l.fx
	if t == nil || t.Intent == nil || e.Background() || len(fx.HostBindings) == 0 || fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" || fx.HostCassette != "" {
		return r, false
	}
	if s, _ := stubFor(fx.HostHandlers, e.Invoke); s != nil {
		return r, false // a stub answers, whatever the args
	}
	switch e.Invoke {
	case "host.run":
		// the timeout is read before args (pkg/host parseRunSpec)
		if kv, ok := slotUint(e.With["timeout"], t); ok {
			return slotRefusal{host.UintTimeoutRefusal, "host.run timeout", `a duration text ("{{ slots.` + kv.Key + ` }}s")`, e.WithPos("timeout"), kv}, true
		}
		args, _ := e.With["args"].([]any)
		for i, a := range args {
			if kv, ok := slotUint(a, t); ok {
				return slotRefusal{fmt.Sprintf("args[%d]: %s", i, host.UintArgRefusal), fmt.Sprintf("host.run args[%d]", i), `text ("{{ string(slots.` + kv.Key + `) }}")`, e.WithPos("args"), kv}, true
			}
		}
	case "host.starlark.run":
		in, _ := e.With["inputs"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(in)) {
			if kv, ok := slotUint(in[k], t); ok {
				return slotRefusal{"cannot convert Go value of type uint64 to Starlark", fmt.Sprintf("host.starlark.run input %q", k), `a computed number ("{{ slots.` + kv.Key + ` + 0 }}")`, e.WithPos("inputs." + k), kv}, true
			}
		}
	}
	return r, false
}

// slotUint is the slot of t that v reads whole when the fixture wrote it
// as a whole number that is not negative (as the runner sends it:
// fixture_run.go's yamlWhole).
func slotUint(v any, t *Turn) (KV, bool) {
	s, _ := v.(string)
	m := wholeSlotRe.FindStringSubmatch(s)
	if m == nil {
		return KV{}, false
	}
	for _, kv := range t.Intent.Slots {
		if kv.Key == m[1] {
			_, whole := yamlWhole(kv.Value).(uint64)
			return kv, whole
		}
	}
	return KV{}, false
}

// refusedAnswer is the answer call e of turn t gets when its handler
// refuses a slot: a domain error with no data, which binds nothing; the
// fixture is warned at the slot, once.
func (l *fixtureLint) refusedAnswer(e *story.Effect, t *Turn, r slotRefusal) stubAnswer {
	key := slotWarnKey{l.fx, t.Index, r.slot.Key}
	if !l.slotWarned[key] {
		if l.slotWarned == nil {
			l.slotWarned = map[slotWarnKey]bool{}
		}
		l.slotWarned[key] = true
		l.warn(r.slot.Pos, ruleSlotUint, "turns[%d]: slot %q value %v is a YAML whole number, and the call %s (%s) reads it whole (%q) in this turn: it reaches %s as a uint64, which the handler refuses as the existing engine does (%q): the call fails and binds nothing; in the story, pass the slot as %s, or expect the failure (last_error)",
			t.Index, r.slot.Key, r.slot.Value, e.Invoke, r.pos, "{{ slots."+r.slot.Key+" }}", r.at, r.msg, r.fix)
	}
	return stubAnswer{known: true, err: e.Invoke + ": " + r.msg}
}

// slotWarnKey is a fixture's turn and slot warned at (refusedAnswer).
type slotWarnKey struct {
	fx   *Fixture
	turn int
	slot string
}

// queue queues call e, made in turn t's chain (nil: a hop's or a
// completion turn's), noting whether its handler certainly refuses it;
// false when e is queued already with another verdict.
func (w *settleWalk) queue(e *story.Effect, t *Turn) bool {
	var r refusedCall
	if w.l.world != nil && !w.l.world.noSlots {
		r.slotRefusal, r.ok = w.l.slotUintRefusal(e, t)
		r.t = t
	}
	if slices.Contains(w.calls, e) && w.refused[e].ok != r.ok {
		return false
	}
	if !w.noteUnstored(e) {
		return false
	}
	if r.ok {
		if w.refused == nil {
			w.refused = map[*story.Effect]refusedCall{}
		}
		w.refused[e] = r
	} else {
		delete(w.refused, e)
	}
	w.calls = append(w.calls, e)
	return true
}

// answer is the answer call e gets: its handler's refusal (queue), or the
// fixture's (answerOf).
func (w *settleWalk) answer(e *story.Effect) stubAnswer {
	if r := w.refused[e]; r.ok {
		return w.l.refusedAnswer(e, r.t, r.slotRefusal)
	}
	return w.l.answerOf(e)
}

// refusedCall is a queued call's refusal (ok), and its turn.
type refusedCall struct {
	slotRefusal
	t  *Turn
	ok bool
}

// turnAnswer is answerOf for the calls of turn t's own chain (its arm's
// and the on_enter its move enters): a handler's refusal of a slot first.
func (l *fixtureLint) turnAnswer(t *Turn) func(*story.Effect) stubAnswer {
	return func(e *story.Effect) stubAnswer {
		if r, ok := l.slotUintRefusal(e, t); ok {
			return l.refusedAnswer(e, t, r)
		}
		return l.answerOf(e)
	}
}

// slotsMayBeRefused reports a turn under host_bindings that sends a slot
// written as a whole number that is not negative: a call of its chain
// may be refused (slotUintRefusal).
func (l *fixtureLint) slotsMayBeRefused(t *Turn) bool {
	if len(l.fx.HostBindings) == 0 || t.Intent == nil {
		return false
	}
	return slices.ContainsFunc(t.Intent.Slots, func(kv KV) bool {
		_, whole := yamlWhole(kv.Value).(uint64)
		return whole
	})
}
