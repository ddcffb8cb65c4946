package engine

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// guard is a compiled expr-lang boolean guard (`when:`).
type guard struct {
	src  string
	prog *expr.Program
}

func compileGuard(src string) (*guard, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	p, err := expr.CompileGuard(src)
	if err != nil {
		return nil, err
	}
	return &guard{src: src, prog: p}, nil
}

func (g *guard) eval(env expr.Env) (bool, error) {
	if g == nil {
		return true, nil
	}
	ok, err := g.prog.EvalBool(env)
	if err != nil {
		return false, fmt.Errorf("when %q: %w", g.src, err)
	}
	return ok, nil
}

// valueTmpl is a `{{ }}` effect-value template (set, slots, emit_intent,
// bind templates): a value without `{{` is a literal; a map or list
// holding templates has each string leaf rendered, a leaf that is exactly
// one {{ e }} keeping e's type (story-format §6.2).
type valueTmpl struct {
	lit  any
	tmpl *expr.Template
	tree *expr.Value // a map or list with templates inside
}

func compileValue(v any) (*valueTmpl, error) {
	switch t := v.(type) {
	case string:
		if !strings.Contains(t, "{{") {
			return &valueTmpl{lit: v}, nil
		}
		c, err := expr.CompileTemplate(t)
		if err != nil {
			return nil, err
		}
		return &valueTmpl{tmpl: c}, nil
	case map[string]any, []any:
		if !hasTemplate(t) {
			return &valueTmpl{lit: v}, nil
		}
		tree, err := expr.PrepareValue(t)
		if err != nil {
			return nil, err
		}
		return &valueTmpl{tree: tree}, nil
	}
	return &valueTmpl{lit: v}, nil
}

// hasTemplate reports whether a string leaf of v holds `{{`.
func hasTemplate(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.Contains(t, "{{")
	case map[string]any:
		return slices.ContainsFunc(slices.Collect(maps.Values(t)), hasTemplate)
	case []any:
		return slices.ContainsFunc(t, hasTemplate)
	}
	return false
}

func (v *valueTmpl) render(env expr.Env) (any, error) {
	out, _, err := v.renderWorld(env)
	return out, err
}

// renderWorld is render, also reporting whether the value held the live
// world itself (`{{ world }}`), which upstream's log cannot encode
// (lostSet; conformance values-world-root-set). The value is a copy.
func (v *valueTmpl) renderWorld(env expr.Env) (any, bool, error) {
	switch {
	case v == nil:
		return nil, false, nil
	case v.tmpl != nil:
		out, err := v.tmpl.Render(env)
		if err != nil {
			return nil, false, err
		}
		var holds bool
		switch out.(type) {
		case map[string]any, []any:
			holds = holdsMap(out, env["world"], 0)
			out = jsonvalue.CopyMap(map[string]any{"v": out})["v"]
		}
		return out, holds, finite(out)
	case v.tree != nil:
		out, err := v.tree.Render(env)
		if err != nil {
			return nil, false, err
		}
		holds := holdsMap(out, env["world"], 0)
		out = jsonvalue.CopyMap(map[string]any{"v": normalizeFresh(out)})["v"]
		return out, holds, finite(out)
	}
	return jsonvalue.Normalize(v.lit), false, nil
}

// nonFiniteError is finite's refusal, or a set: value holding the live
// world itself, which upstream's log cannot encode either (lostSet).
type nonFiniteError struct {
	v     float64
	world bool
}

func (e *nonFiniteError) Error() string {
	if e.world {
		return "the value holds the whole world (`{{ world }}`), which no JSON value can hold once stored in it; set the keys you need (world.K) instead"
	}
	return fmt.Sprintf("the value is %v, which no JSON value can hold (a division by zero?); guard the expression", e.v)
}

// keptNonFinite is err without finite's refusal, which a rendered value
// comes back with, unless strict: an emit_intent's name or slots keep NaN
// and the infinities as upstream's do (conformance emit-slots-non-finite).
func keptNonFinite(err error, strict bool) error {
	var nf *nonFiniteError
	if !strict && errors.As(err, &nf) && !nf.world {
		return nil
	}
	return err
}

// holdsMap reports whether v is, or holds within a few levels, the map m
// itself (the same map, not an equal one).
func holdsMap(v, m any, depth int) bool {
	mv := reflect.ValueOf(m)
	if depth > 8 || mv.Kind() != reflect.Map {
		return false
	}
	inside := func(x any) bool { return holdsMap(x, m, depth+1) }
	switch t := v.(type) {
	case map[string]any:
		return reflect.ValueOf(t).UnsafePointer() == mv.UnsafePointer() || slices.ContainsFunc(slices.Collect(maps.Values(t)), inside)
	case []any:
		return slices.ContainsFunc(t, inside)
	}
	return false
}

// finite refuses a rendered value holding an infinite or NaN number,
// which no JSON value holds (docs/compat/engine.md).
func finite(v any) error {
	switch t := v.(type) {
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return &nonFiniteError{v: t}
		}
	case float32:
		return finite(float64(t))
	case map[string]any:
		for _, x := range t {
			if err := finite(x); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range t {
			if err := finite(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// text is a pongo2 template (say, templated targets, compound initial);
// strings without `{{` or `{%` are literals.
type text struct {
	src string
	p   *expr.Pongo
	x   *expr.Template // a target written in the expr template syntax
	err error          // the compile error of a text upstream compiles only when it renders
	// hx is a target as the expr template engine compiles it, which
	// renders it on an emit hop (hxErr: why it does not compile;
	// armtarget.go renderHop)
	hx    *expr.Template
	hxErr error
}

// compileTarget compiles a transition, on_complete or timeout target:
// pongo2 first, else the expr template engine, so a `{{ c ? 'a' : 'b' }}`
// target works on every path (story-runtime §1.6, §5).
func compileTarget(l *expr.PongoLoader, src string) (*text, error) {
	if !story.TemplatedAt(story.FieldTarget, src) {
		// a {% %} tag alone is a path (conformance tag-only-targets)
		return &text{src: src}, nil
	}
	t, err := compileText(l, src)
	x, xerr := expr.CompileTemplate(src)
	if err == nil {
		t.hx, t.hxErr = x, xerr
		return t, nil
	}
	if xerr != nil {
		return nil, err
	}
	return &text{src: src, x: x, hx: x}, nil
}

// compileText compiles src with the story's pongo2 loader l.
func compileText(l *expr.PongoLoader, src string) (*text, error) {
	if !story.IsTemplated(src) {
		return &text{src: src}, nil
	}
	p, err := l.Compile(src)
	if err != nil {
		return nil, err
	}
	return &text{src: src, p: p}, nil
}

// toString is a rendered value as a text: as upstream interpolates it
// (expr.Stringify), so a list or an object an emit hop's target or an
// emit_intent name renders is its JSON (conformance hop-target-json).
func toString(v any) string { return expr.Stringify(v) }

func (t *text) render(env expr.Env) (string, error) {
	if t == nil {
		return "", nil
	}
	if t.err != nil {
		return "", t.err
	}
	if t.x != nil {
		v, err := t.x.Render(env)
		if err != nil {
			return "", err
		}
		return toString(v), nil
	}
	if t.p == nil {
		return t.src, nil
	}
	return t.p.Render(env)
}

func (t *text) templated() bool { return t != nil && (t.p != nil || t.x != nil || t.err != nil) }

// sayEnv is what a say: renders against: without the session's state, as
// upstream (conformance values-render-env).
func sayEnv(env map[string]any) map[string]any {
	out := maps.Clone(env)
	out["state"] = map[string]any{}
	return out
}

// env builds the expression/template environment.
func (r *runner) env(slots map[string]any, extra map[string]any) map[string]any {
	ce := r.callEnv()
	ce.Slots = slots
	env := callEnv(r.m.Dir, ce)
	maps.Copy(env, extra)
	return env
}

// callEnv is the environment of the current step (world, slots, state).
func (r *runner) callEnv() CallEnv {
	ce := CallEnv{World: r.world, Slots: r.slots, Render: r.evalCtx()}
	if r.t.landView != nil {
		ce.World = r.t.landView
	}
	if r.cur != nil {
		ce.StatePath = r.cur.Path
		ce.StateDescription = r.cur.Description
	}
	return ce
}
