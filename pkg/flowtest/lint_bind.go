package flowtest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// The known world follows a host call's binds when the fixture certainly
// answers it (conformance lint-bind-answer, probed on the existing
// engine): the calls of a turn dispatch after its machine effects, in
// order, and each binds its answer's paths in sorted key order; a path
// the answer lacks leaves the key as it was. On the legacy path no call
// runs; on the orchestrator path a handler no stub serves, or a stub's
// infra_error, binds nothing; a domain error's data still binds. A
// host_cassette answers as lint_cassette.go says. Anything else
// (host_bindings, a delay, a templated id or op a stub keys on, a
// template bind) leaves the keys the call may write uncertain, as before.

// stubAnswer is what the fixture's stubs certainly answer call e: known is
// false when that is not certain; binds is false when the call binds
// nothing (it never runs, or fails as infra).
type stubAnswer struct {
	data         map[string]any
	err          string // a domain or infra error
	known, binds bool
}

// plainCall reports a foreground call whose only writes are its binds
// and last_error/host_error: one the known world can follow (a once:
// call when whether it runs is certain: onceRuns).
func plainCall(e *story.Effect) bool {
	if e == nil || e.Invoke == "" || e.When != "" || e.Background() || e.Agent() != "" ||
		len(e.Set) > 0 || len(e.Increment()) > 0 || e.Selection() != nil || e.EmitIntent() != "" ||
		len(e.Effects()) > 0 || len(e.OnComplete()) > 0 {
		return false
	}
	return !slices.ContainsFunc(e.Bind(), func(kv story.KV) bool {
		return strings.Contains(kv.Key, ".") || story.IsTemplated(kv.Key)
	})
}

// answerOf is the fixture's answer to call e (a plainCall).
func (l *fixtureLint) answerOf(e *story.Effect) stubAnswer {
	a, delay := l.answerAfter(e)
	if delay != 0 {
		return stubAnswer{}
	}
	return a
}

// answerAfter is answerOf with the stub's delay, which answerOf leaves
// uncertain (a background job's answer lands after it: lint_jobs_land.go).
func (l *fixtureLint) answerAfter(e *story.Effect) (stubAnswer, time.Duration) {
	fx := l.fx
	if !fx.Orchestrated() {
		return stubAnswer{known: true}, 0 // the legacy path runs no call (flow-format §4.5)
	}
	if fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" {
		return stubAnswer{}, 0
	}
	if len(fx.HostBindings) > 0 && !stubbedExactly(fx, e) {
		return l.realAnswer(e), 0 // the real handler runs
	}
	name, ok := l.ix.handler(e.Invoke)
	if !ok || name == "host.jobs.answer_clarification" {
		return stubAnswer{}, 0
	}
	if fx.HostCassette != "" {
		return l.cassetteAnswer(e, name)
	}
	s, op := stubFor(fx.HostHandlers, name)
	if s == nil {
		return stubAnswer{known: true, err: "no handler"}, 0 // an infra error (flow-format §4.4)
	}
	if s.Delay < 0 || s.DelayErr != "" || s.RequestClarification != "" {
		return stubAnswer{}, 0
	}
	env, ok := envelopeFor(s, e, op)
	if !ok {
		return stubAnswer{}, 0
	}
	if env.InfraError != "" {
		return stubAnswer{known: true, err: env.InfraError}, s.Delay
	}
	data, _ := jsonvalue.Normalize(yamlWhole(jsonvalue.CopyMap(env.Data))).(map[string]any)
	return stubAnswer{data: data, err: env.Error, known: true, binds: true}, s.Delay
}

// stubbedExactly reports a call a stub of fx serves under host_bindings,
// where the real handlers are registered and a stub replaces the one of
// its name (fixture_setup.go's handlers): one named exactly as the
// invoke, which names no iface (a binding may rebind it), with no
// host_cassette.
func stubbedExactly(fx *Fixture, e *story.Effect) bool {
	if fx.HostCassette != "" || strings.HasPrefix(e.Invoke, "iface.") {
		return false
	}
	return slices.ContainsFunc(fx.HostHandlers, func(s *Stub) bool { return s.Name == e.Invoke })
}

// stubFor is the stub serving handler name, exactly or by the longest
// dotted prefix, and the op a prefix hit drops (host.go's lookup).
func stubFor(stubs []*Stub, name string) (*Stub, string) {
	for p, op := name, ""; p != ""; {
		if i := slices.IndexFunc(stubs, func(s *Stub) bool { return s.Name == p }); i >= 0 {
			return stubs[i], op
		}
		dot := strings.LastIndexByte(p, '.')
		if dot < 0 {
			break
		}
		op = strings.TrimPrefix(name[dot:], ".")
		p = p[:dot]
	}
	return nil, ""
}

// envelopeFor is the answer stub s gives call e (Stub.Handler's order:
// by_call on the effect's id, by_op on its op, then the top level); ok
// is false when a templated id or op leaves the choice unknown.
func envelopeFor(s *Stub, e *story.Effect, dropped string) (*Envelope, bool) {
	top := &Envelope{Data: s.Data, Error: s.Error, InfraError: s.InfraError}
	if len(s.ByCall) > 0 {
		if story.IsTemplated(e.ID()) {
			return nil, false
		}
		if env := s.ByCall[e.ID()]; env != nil {
			return env, true
		}
	}
	if len(s.ByOp) == 0 {
		return top, true
	}
	op := dropped
	if v, ok := e.With["op"]; ok {
		sv, isString := v.(string)
		if !isString || story.IsTemplated(sv) {
			return nil, false
		}
		if sv != "" {
			op = sv
		}
	}
	if env := s.ByOp[op]; env != nil {
		return env, true
	}
	return top, true
}

// handler is the name call invoke dispatches as: iface.<name>.<op> is
// <default>.<op> (flow-format §4.2); ok is false when an import may
// rebind it.
func (ix *storyIndex) handler(invoke string) (string, bool) {
	if !strings.HasPrefix(invoke, "iface.") {
		return invoke, true
	}
	if len(ix.source.Imports) > 0 || ix.story != ix.source {
		return "", false
	}
	if h := ix.bound(invoke); h != invoke {
		return h, true
	}
	return "", false
}

// bound rewrites iface.<name>.<op> to <binding>.<op> by the iface's
// default:, leaving any other name as it is.
func (ix *storyIndex) bound(h string) string {
	return ix.boundWith(h, nil)
}

// boundWith is bound with the interfaces binds names rebound first (a
// fixture's host_bindings: fixtureCalls).
func (ix *storyIndex) boundWith(h string, binds map[string]string) string {
	name, op, ok := story.IfaceCall(h)
	if !ok {
		return h
	}
	hi := ix.story.HostInterfaces[name]
	if hi == nil {
		return h
	}
	to := hi.Default
	if b, ok := binds[name]; ok {
		to = b
	}
	if to == "" {
		return h
	}
	if op == "" {
		return to
	}
	return to + "." + op
}

// fixtureCalls is ix.invoked as the fixture's host_bindings dispatch it
// (fixtureBinds). A binding that is no handler name leaves ix.invoked.
func (ix *storyIndex) fixtureCalls(fx *Fixture) map[string]bool {
	binds, ok := ix.fixtureBinds(fx)
	if !ok || binds == nil {
		return ix.invoked
	}
	out := map[string]bool{}
	for h := range ix.invokes {
		out[ix.boundWith(h, binds)] = true
	}
	return out
}

// fixtureBinds is the fixture's host_bindings of interfaces the folded
// story declares: a call of one goes to the fixture's handler, not the
// default, by its name in the folded story (a lifted kid__ticket
// included: upstream reloads the app with the bindings, applied after
// the imports' own; conformance fixture-bindings-lifted). A name the
// story declares no interface of is ignored, as upstream's rig does; ok
// is false when a binding names no handler (null, empty, templated).
func (ix *storyIndex) fixtureBinds(fx *Fixture) (binds map[string]string, ok bool) {
	for _, kv := range fx.HostBindings {
		if ix.story.HostInterfaces[kv.Key] == nil {
			continue
		}
		to, isText := kv.Value.(string)
		if !isText || to == "" || story.IsTemplated(to) {
			return nil, false
		}
		if binds == nil {
			binds = map[string]string{}
		}
		binds[kv.Key] = to
	}
	return binds, true
}

// dispatch runs a turn's calls, in order, on the known world after its
// machine effects: each certain answer's binds, and an uncertain call's
// keys made uncertain. A failing call with on_error ends the batch, so
// after one whose answer is not certain every later call is uncertain too.
func (w *knownWorld) dispatch(calls []*story.Effect, answerOf func(*story.Effect) stubAnswer, orchestrated bool) {
	for i, e := range calls {
		if orchestrated {
			w.seedIDE() // before each dispatch (lint_world_seed.go)
		}
		a := answerOf(e)
		if !a.known {
			w.forget([]*story.Effect{e}, orchestrated)
			if e.OnError() != "" {
				w.forget(calls[i+1:], orchestrated)
				return
			}
			continue
		}
		if a.err != "" {
			w.dirty[story.WorldLastError] = true
			w.dirty[story.WorldHostError] = true
		}
		if a.binds {
			w.bind(e, a.data)
		}
		if a.err != "" && e.OnError() != "" {
			w.forget(calls[i+1:], orchestrated) // redirected: the rest of the batch never runs
			return
		}
	}
}

// bind applies e's binds of data, in sorted key order (engine.bindResult).
func (w *knownWorld) bind(e *story.Effect, data map[string]any) {
	binds := slices.Clone(e.Bind())
	slices.SortStableFunc(binds, func(a, b story.KV) int { return strings.Compare(a.Key, b.Key) })
	for _, kv := range binds {
		var path string
		switch v := kv.Value.(type) {
		case string:
			path = v
		case nil:
		case int, int64, uint64, float64, bool:
			path = fmt.Sprint(v)
		default:
			w.dirty[kv.Key] = true
			continue
		}
		if strings.Contains(path, "{{") {
			w.dirty[kv.Key] = true // a template bind renders with the engine's env
			continue
		}
		if v, ok := engine.LookupBindPath(data, path); ok {
			w.set(kv.Key, v)
		}
	}
}

// onceRuns reports whether call e is queued at walk time: a once: call
// whose bind keys all hold a non-empty value is skipped (engine
// onceAllows); known is false when one of them is uncertain.
func (w *knownWorld) onceRuns(e *story.Effect) (runs, known bool) {
	if !e.Once() || len(e.Bind()) == 0 {
		return true, true
	}
	for _, kv := range e.Bind() {
		v, ok := w.get(kv.Key)
		if !ok {
			return false, false
		}
		if engine.IsEmpty(v) {
			return true, true
		}
	}
	return false, true
}
