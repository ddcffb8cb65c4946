package view

import (
	"fmt"
	"maps"
	"reflect"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// An element-level when: (on an element, a list or choice item, a form
// field) is an expression, not a guard: upstream evaluates it to any value
// and shows the element when the value is truthy (conformance probe 09:
// `when: "world.files"` on a non-empty list shows the element). A when:
// that fails to compile or evaluate hides the element, with a warning.

// evalExpr evaluates an expression of a view (an element when:, a readonly
// form field's expr:), compiled once per source.
func (r *Renderer) evalExpr(src string, env expr.Env) (any, error) {
	p, err := r.program(r.exprs, src, expr.CompileExpr)
	if err != nil {
		return nil, err
	}
	return p.Eval(env)
}

// hidden evaluates the when: of the part named what of element el against
// env (whenEnv): true when the part is to be left out, its value not being
// truthy. A when: that cannot be compiled or evaluated hides the part and
// is reported through OnWarning and to the func(error) env holds under
// expr.WarnKey (a test's failing view check says so).
func (r *Renderer) hidden(when string, el *story.ViewElement, s *story.State, what, which string, env expr.Env) bool {
	if when == "" {
		return false
	}
	v, err := r.evalExpr(when, whenEnv(env))
	if err != nil {
		werr := &Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("when %q: %v; the %s is omitted", when, err, which), Err: err}
		if r.warn != nil {
			r.warn(werr)
		}
		if warn, ok := env[expr.WarnKey].(func(error)); ok {
			warn(werr)
		}
		return true
	}
	return !truthy(v)
}

// truthy is upstream's truth value of a when: result: nil, false, "", the
// numbers 0 (int, int64, float64) and empty lists and maps are false;
// everything else is true. Like upstream's, it knows no other number
// types: an unsigned integer (how upstream holds a whole number written in
// the story's YAML, see whenEnv) is true even when it is 0.
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

// whenWorldKey caches, in one render's env, the env whenShows evaluates
// against.
const whenWorldKey = "__kitsoki_when_env"

// whenEnv is env with its world in upstream's number shapes and bare
// names strict (expr.Strict), built once per render: a whole number
// written in the story's YAML (a world default, a set: literal) is an int
// here and an unsigned integer upstream, which its when: truth value counts as true even at 0 (a
// `type: int` key defaulting to 0 shows its element until the key is
// written). Fixture values (int64), replayed values (float64, int64) and
// numbers an expression computes (int) keep their shapes.
func whenEnv(env expr.Env) expr.Env {
	if c, ok := env[whenWorldKey].(*whenCache); ok {
		return c.env
	}
	w, _ := yamlInts(env["world"])
	we := make(expr.Env, len(env)+1)
	maps.Copy(we, env) // env has no whenWorldKey yet
	we["world"] = w
	// a bare name that is no root fails as upstream's does, hiding the
	// element (engine conformance bare-neighbours view-when.yaml)
	expr.Strict(we)
	env[whenWorldKey] = &whenCache{env: we}
	return we
}

// whenCache holds the env whenEnv built for one render.
type whenCache struct{ env expr.Env }

// yamlInts returns v with every int turned into upstream's shape for a
// YAML whole number (uint64, or int64 when negative), copying only the
// containers that hold one; changed reports whether any did.
func yamlInts(v any) (out any, changed bool) {
	switch x := v.(type) {
	case int:
		if x < 0 {
			return int64(x), true
		}
		return uint64(x), true
	case map[string]any:
		var cp map[string]any
		for k, e := range x {
			ne, ch := yamlInts(e)
			if !ch {
				continue
			}
			if cp == nil {
				cp = maps.Clone(x)
			}
			cp[k] = ne
		}
		if cp == nil {
			return v, false
		}
		return cp, true
	case []any:
		var cp []any
		for i, e := range x {
			ne, ch := yamlInts(e)
			if !ch {
				continue
			}
			if cp == nil {
				cp = append([]any(nil), x...)
			}
			cp[i] = ne
		}
		if cp == nil {
			return v, false
		}
		return cp, true
	}
	return v, false
}
