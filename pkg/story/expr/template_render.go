package expr

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// Render renders the template against env. A literal renders to its source
// string, a single {{ e }} to e's typed value, anything else to a string.
func (t *Template) Render(env Env) (out any, err error) {
	return t.render(env, &tplBudget{src: t.src, shared: sharedBudgetOf(env)})
}

// render is Render within lim.
func (t *Template) render(env Env, lim *tplBudget) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, caught(KindEval, fmt.Sprintf("template %q", t.src), "the template renderer", t.src, r)
		}
	}()
	switch {
	case t.lit:
		return t.src, nil
	case t.typed != nil:
		v, err := lim.eval(t.typed.prog, env)
		if err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok && lim.shared != nil {
			if err := lim.grow(0, len(s)); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	var b strings.Builder
	// Each program fills the roots it names (Program.Eval): env is not copied here.
	if err := renderNodes(&b, t.nodes, env, lim); err != nil {
		return nil, err
	}
	return b.String(), nil
}

// tplBudget is the budget of one {{ }} render, with its shared budget (or
// nil); bytes and elems, when set, lower each expression's (RenderWithin).
type tplBudget struct {
	src    string
	steps  int
	shared *renderBudget
	bytes  int64
	elems  uint
}

// eval evaluates p within the render's expression budgets.
func (l *tplBudget) eval(p *Program, env Env) (any, error) {
	if l.bytes > 0 {
		return p.eval(env, l.bytes, l.elems)
	}
	return p.Eval(env)
}

// step spends one {{ range }} iteration.
func (l *tplBudget) step() error {
	if l.shared != nil {
		if err := l.shared.step(); err != nil {
			return l.sharedErr(err)
		}
	}
	if l.steps++; l.steps > MaxRenderSteps {
		return &Error{Kind: KindEval, Err: ErrRenderBudget, Src: l.src,
			Msg: fmt.Sprintf("template %s: more than %d {{ range }} iterations; iterate over less", Quote(l.src), MaxRenderSteps)}
	}
	return nil
}

// grow refuses to grow a text of have bytes by n past MaxRenderBytes, or
// the shared budget's output past its cap.
func (l *tplBudget) grow(have, n int) error {
	if l.shared != nil {
		if err := l.shared.write(n); err != nil {
			return l.sharedErr(err)
		}
	}
	if have+n <= MaxRenderBytes {
		return nil
	}
	return &Error{Kind: KindEval, Err: ErrRenderBudget, Src: l.src,
		Msg: fmt.Sprintf("template %s: the text is over %d bytes; build less", Quote(l.src), MaxRenderBytes)}
}

func (l *tplBudget) sharedErr(err error) error {
	return &Error{Kind: KindEval, Err: err, Src: l.src, Msg: fmt.Sprintf("template %s: %v", Quote(l.src), err)}
}

// RenderString renders the template as interpolation formats it (Stringify).
func (t *Template) RenderString(env Env) (string, error) {
	v, err := t.Render(env)
	if err != nil {
		return "", err
	}
	return Stringify(v), nil
}

// renderNodes renders nodes into b within lim.
func renderNodes(b *strings.Builder, nodes []tNode, env Env, lim *tplBudget) error {
	for _, n := range nodes {
		switch n := n.(type) {
		case tText:
			if err := lim.grow(b.Len(), len(n.s)); err != nil {
				return err
			}
			b.WriteString(n.s)
		case *tExpr:
			v, err := lim.eval(n.prog, env)
			if err != nil {
				return err
			}
			s := Stringify(v)
			if err := lim.grow(b.Len(), len(s)); err != nil {
				return err
			}
			b.WriteString(s)
		case *tIf:
			for _, br := range n.branches {
				ok := true
				if br.cond != nil {
					v, err := lim.eval(br.cond, env)
					if err != nil {
						return condError(br.cond.src, err)
					}
					ok = v == true
				}
				if ok {
					if err := renderNodes(b, br.body, env, lim); err != nil {
						return err
					}
					break
				}
			}
		case *tRange:
			v, err := lim.eval(n.list, env)
			if err != nil {
				return err
			}
			items, err := rangeItems(n.list.src, v)
			if err != nil {
				return err
			}
			if len(items) == 0 {
				continue
			}
			inner := make(Env, len(env)+1)
			maps.Copy(inner, env)
			for _, it := range items {
				if err := lim.step(); err != nil {
					return err
				}
				inner["item"] = it
				if err := renderNodes(b, n.body, inner, lim); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// rangeItems lists what {{ range }} iterates: the elements of a slice or
// array, nothing for nil. Anything else (a map, a string, a number) fails
// as upstream's does (conformance tmpl-range-map; upstream names the Go
// type: `range expression yields map[string]interface {}, expected list`).
func rangeItems(src string, v any) ([]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = rv.Index(i).Interface()
		}
		return out, nil
	}
	return nil, &Error{Kind: KindEval, Msg: fmt.Sprintf("template range %q: range expression yields %s, expected a list", src, describe(v)), Src: src}
}

// condError is a failed {{ if }} condition, named as upstream names it:
// `template if-cond "world.s": expr eval "world.s": invalid operation:
// bool(string) (1:1)` (a value that is neither a bool nor nil).
func condError(src string, err error) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	c := *e
	c.Msg = fmt.Sprintf("template if-cond %q: %s", src, e.Msg)
	return &c
}

// Stringify formats a value for interpolation as upstream's does: nil "",
// []any and maps as compact HTML-escaped JSON, others with fmt (a []byte,
// which a fixture's !!binary gives, as its numbers: conformance
// fixture-binary).
func Stringify(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		return jsonText(v)
	case fmt.Stringer:
		return v.String()
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return ""
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Map, reflect.Struct:
		return jsonText(v)
	}
	return fmt.Sprint(v)
}

// jsonText is v as json.Marshal writes it, else as fmt does.
func jsonText(v any) string {
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}
