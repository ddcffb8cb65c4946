package engine

import (
	"fmt"
	"strings"

	"kitsoki/internal/jsonvalue"
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
// bind templates); a string without `{{` is a literal and non-strings are
// literal values.
type valueTmpl struct {
	lit  any
	tmpl *expr.Template
}

func compileValue(v any) (*valueTmpl, error) {
	s, ok := v.(string)
	if !ok || !strings.Contains(s, "{{") {
		return &valueTmpl{lit: v}, nil
	}
	t, err := expr.CompileTemplate(s)
	if err != nil {
		return nil, err
	}
	return &valueTmpl{tmpl: t}, nil
}

func (v *valueTmpl) render(env expr.Env) (any, error) {
	if v == nil {
		return nil, nil
	}
	if v.tmpl == nil {
		return jsonvalue.Normalize(v.lit), nil
	}
	return v.tmpl.Render(env)
}

// text is a pongo2 template (say, templated targets, compound initial);
// strings without `{{` or `{%` are literals.
type text struct {
	src string
	p   *expr.Pongo
	x   *expr.Template // a target written in the expr template syntax
}

// compileTarget compiles a transition, on_complete or timeout target:
// pongo2 first (upstream's user-turn renderer), else the expr template
// engine (upstream's renderer on emit hops and on_complete targets,
// story-runtime §1.6, §5), so a `{{ c ? 'a' : 'b' }}` target works on
// every path.
func compileTarget(l *expr.PongoLoader, src string) (*text, error) {
	t, err := compileText(l, src)
	if err == nil {
		return t, nil
	}
	x, xerr := expr.CompileTemplate(src)
	if xerr != nil {
		return nil, err
	}
	return &text{src: src, x: x}, nil
}

func isPongo(s string) bool { return strings.Contains(s, "{{") || strings.Contains(s, "{%") }

func compileText(l *expr.PongoLoader, src string) (*text, error) {
	if !isPongo(src) {
		return &text{src: src}, nil
	}
	var p *expr.Pongo
	var err error
	if l != nil {
		p, err = l.Compile(src)
	} else {
		p, err = expr.CompilePongo(src)
	}
	if err != nil {
		return nil, err
	}
	return &text{src: src, p: p}, nil
}

func (t *text) render(env expr.Env) (string, error) {
	if t == nil {
		return "", nil
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

func (t *text) templated() bool { return t != nil && (t.p != nil || t.x != nil) }
