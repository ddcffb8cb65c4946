package view

import (
	"errors"
	"fmt"
	"maps"
	"reflect"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// An element-level when: is an expression, not a guard: the element shows
// when its value is truthy (conformance probe 09); one that fails to
// evaluate hides it, with a warning; one that does not compile (a syntax
// error, a whitelist violation such as state.path) fails the view, as
// upstream's render does (conformance view-when-compile-error).

// evalExpr evaluates a view expression, compiled once per source.
func (r *Renderer) evalExpr(src string, env expr.Env) (any, error) {
	p, err := r.program(r.exprs, src, expr.CompileExpr)
	if err != nil {
		return nil, err
	}
	return p.Eval(env)
}

// hidden reports whether the part of el named what is left out: its when:
// is not truthy, or fails to evaluate (reported through expr.WarnKey). A
// when: that does not compile is the view's error.
func (r *Renderer) hidden(when string, el *story.ViewElement, s *story.State, what, which string, env expr.Env) (bool, error) {
	if when == "" {
		return false, nil
	}
	v, err := r.evalExpr(when, whenEnv(env))
	if err != nil {
		if ee := (*expr.Error)(nil); errors.As(err, &ee) && (ee.Kind == expr.KindCompile || ee.Kind == expr.KindWhitelist) {
			return true, &Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("when %q: %v", when, err), Err: err}
		}
		werr := &Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("when %q: %v; the %s is omitted", when, err, which), Err: err}
		if warn, ok := env[expr.WarnKey].(func(error)); ok {
			warn(werr)
		}
		return true, nil
	}
	return !truthy(v), nil
}

// truthy is upstream's truth value of a when: result: nil, false, "", 0
// (int, int64, float64) and empty collections are false; unsigned 0 is true.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len() > 0
	}
	return true
}

// whenWorldKey caches, in one render's env, the env whenShows uses.
const whenWorldKey = "__kitsoki_when_env"

// whenEnv is env with bare names strict. The world's whole numbers are as
// upstream holds them: a YAML one (a default, a set:'s literal) a uint64,
// so a 0 is truthy, an expression's an int, so a 0 is not (conformance
// view-when-expr-int).
func whenEnv(env expr.Env) expr.Env {
	if c, ok := env[whenWorldKey].(*whenCache); ok {
		return c.env
	}
	we := make(expr.Env, len(env)+1)
	maps.Copy(we, env) // env has no whenWorldKey yet
	// a bare non-root name fails, hiding the element (conformance bare-neighbours)
	expr.Strict(we)
	// upstream's when: sees the state, and args as a nil map unless a
	// render passes some (conformance roots-nil-maps)
	we[expr.WhenStateKey] = env["state"]
	if a, ok := we["args"].(map[string]any); ok && len(a) == 0 {
		we["args"] = map[string]any(nil)
	}
	if env[NilEventKey] == true {
		we["event"] = map[string]any(nil)
	}
	env[whenWorldKey] = &whenCache{env: we}
	return we
}

// NilEventKey, true in a render's extra, makes event a nil map in the
// when:s, as upstream's flow rig re-renders a turn's view: every
// legacy-path turn, and an orchestrator-path turn with no view of its own
// (conformance view-when-legacy-event).
const NilEventKey = "__kitsoki_nil_event"

// whenCache holds the env whenEnv built for one render.
type whenCache struct{ env expr.Env }
