package expr

import (
	"reflect"
	"strings"

	"github.com/flosch/pongo2/v6"

	"kitsoki/internal/lazyre"
)

// kitsoki's for and set tags and macro/include regions: pongo2's syntax
// and meaning plus the render budget.

// forLoop is forloop (and forloop.Parentloop), with pongo2's field names.
type forLoop struct {
	Counter     int
	Counter0    int
	Revcounter  int
	Revcounter0 int
	First       bool
	Last        bool
	Parentloop  *forLoop
}

type forNode struct {
	key, value string
	list       pongo2.IEvaluator
	reversed   bool
	sorted     bool
	body       *pongo2.NodeWrapper
	empty      *pongo2.NodeWrapper
	tok        *pongo2.Token
}

// Execute is pongo2's for loop, spending a render step per iteration.
func (n *forNode) Execute(ctx *pongo2.ExecutionContext, w pongo2.TemplateWriter) (ferr *pongo2.Error) {
	b := budgetOf(ctx)
	if b != nil {
		w = heldBy(b, w)
	}
	fctx := pongo2.NewChildExecutionContext(ctx)
	info := &forLoop{First: true}
	if parent, ok := fctx.Private["forloop"].(*forLoop); ok {
		info.Parentloop = parent
	}
	fctx.Private["forloop"] = info
	list, err := n.list.Evaluate(fctx)
	if err != nil {
		return err
	}
	reversed, sorted := n.reversed, n.sorted
	if !sorted && isMap(list) {
		// pongo2 walks a map in Go's map order, so upstream's loop differs
		// run to run; ours walks it in sorted key order, and reversed alone
		// is ignored there as in pongo2 (docs/compat/template-map-order.md)
		reversed, sorted = false, true
	}
	list.IterateOrder(func(idx, count int, key, value *pongo2.Value) bool {
		if b != nil {
			if err := b.step(); err != nil {
				ferr = ctx.OrigError(err, n.tok)
				return false
			}
		}
		fctx.Private[n.key] = key
		if value != nil {
			fctx.Private[n.value] = value
		}
		info.Counter, info.Counter0 = idx+1, idx
		if idx == 1 {
			info.First = false
		}
		if idx+1 == count {
			info.Last = true
		}
		info.Revcounter, info.Revcounter0 = count-idx, count-idx-1
		if err := n.body.Execute(fctx, w); err != nil {
			ferr = err
			return false
		}
		return true
	}, func() {
		if n.empty != nil {
			ferr = n.empty.Execute(fctx, w)
		}
	}, reversed, sorted)
	return ferr
}

// isMap reports whether v holds a map, through pointers as pongo2 resolves it.
func isMap(v *pongo2.Value) bool {
	rv := reflect.ValueOf(v.Interface())
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	return rv.Kind() == reflect.Map
}

func forTagParser(doc *pongo2.Parser, start *pongo2.Token, args *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
	n := &forNode{tok: start}
	key := args.MatchType(pongo2.TokenIdentifier)
	if key == nil {
		return nil, args.Error("Expected an key identifier as first argument for 'for'-tag", nil)
	}
	n.key = key.Val
	if args.Match(pongo2.TokenSymbol, ",") != nil {
		value := args.MatchType(pongo2.TokenIdentifier)
		if value == nil {
			return nil, args.Error("Value name must be an identifier.", nil)
		}
		n.value = value.Val
	}
	if args.Match(pongo2.TokenKeyword, "in") == nil {
		return nil, args.Error("Expected keyword 'in'.", nil)
	}
	list, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	n.list = list
	n.reversed = args.MatchOne(pongo2.TokenIdentifier, "reversed") != nil
	n.sorted = args.MatchOne(pongo2.TokenIdentifier, "sorted") != nil
	if args.Remaining() > 0 {
		return nil, args.Error("Malformed for-loop arguments.", nil)
	}
	if n.body, err = wrapUntil(doc, "empty", "endfor"); err != nil {
		return nil, err
	}
	if n.body.Endtag == "empty" {
		if n.empty, err = wrapUntil(doc, "endfor"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// wrapUntil is the body up to one of tags, whose end tag takes no arguments.
func wrapUntil(doc *pongo2.Parser, tags ...string) (*pongo2.NodeWrapper, *pongo2.Error) {
	body, end, err := doc.WrapUntilTag(tags...)
	if err == nil && end.Count() > 0 {
		err = end.Error("Arguments not allowed here.", nil)
	}
	return body, err
}

type setNode struct {
	name string
	expr pongo2.IEvaluator
	tok  *pongo2.Token
}

// Execute is pongo2's set, spending a step and charging the text it keeps.
func (n *setNode) Execute(ctx *pongo2.ExecutionContext, _ pongo2.TemplateWriter) *pongo2.Error {
	v, err := n.expr.Evaluate(ctx)
	if err != nil {
		return err
	}
	if b := budgetOf(ctx); b != nil {
		size := 0
		if v.IsString() {
			size = len(v.String())
		}
		if e := b.keep(size); e != nil {
			return ctx.OrigError(e, n.tok)
		}
	}
	ctx.Private[n.name] = v
	return nil
}

func setTagParser(doc *pongo2.Parser, start *pongo2.Token, args *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
	n := &setNode{tok: start}
	name := args.MatchType(pongo2.TokenIdentifier)
	if name == nil {
		return nil, args.Error("Expected an identifier.", nil)
	}
	n.name = name.Val
	if args.Match(pongo2.TokenSymbol, "=") == nil {
		return nil, args.Error("Expected '='.", nil)
	}
	e, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	n.expr = e
	if args.Remaining() > 0 {
		return nil, args.Error("Malformed 'set'-tag arguments.", nil)
	}
	return n, nil
}

// pongo2 runs macro bodies and includes with no hook, so recursion would
// overflow the Go stack. rewriteMacros and rewriteIncludes wrap each in
// entry and leave tags; the region between counts calls as steps, bounds
// the depth and charges what it writes. rewriteFilters wraps each
// {% filter %} and {% spaceless %} body the same way: pongo2 writes it
// into a buffer of its own before it reaches the output.
const (
	macroEnterTag   = "__kitsoki_macro_enter"
	macroLeaveTag   = "__kitsoki_macro_leave"
	includeEnterTag = "__kitsoki_include_enter"
	includeLeaveTag = "__kitsoki_include_leave"
	filterEnterTag  = "__kitsoki_filter_enter"
	filterLeaveTag  = "__kitsoki_filter_leave"
)

var (
	macroOpen  = &lazyre.Regexp{Expr: `\{%-?\s*macro\s[^%]*?-?%\}`}
	macroClose = &lazyre.Regexp{Expr: `\{%-?\s*endmacro\s*-?%\}`}
	// includeTag is an include tag; groups 1 and 2 hold its "-" trims.
	includeTag = &lazyre.Regexp{Expr: `\{%(-?)\s*include\s(?:[^%"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*?(-?)%\}`}
	// filterOpen and filterClose are the tags around a filter or spaceless
	// block; the group holds the "-" trim on the body's side.
	filterOpen  = &lazyre.Regexp{Expr: `\{%-?\s*(?:filter\s(?:[^%"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*?|spaceless\s*)(-?)%\}`}
	filterClose = &lazyre.Regexp{Expr: `\{%(-?)\s*end(?:filter|spaceless)\s*-?%\}`}
)

// rewriteMacros adds the entry and leave tags to every macro body of src,
// the entry on the opening tag's line so error lines are unchanged.
func rewriteMacros(src string) string {
	if !strings.Contains(src, "macro") {
		return src
	}
	src = macroOpen.ReplaceAllStringFunc(src, func(m string) string { return m + "{% " + macroEnterTag + " %}" })
	return macroClose.ReplaceAllStringFunc(src, func(m string) string { return "{% " + macroLeaveTag + " %}" + m })
}

// rewriteIncludes puts the entry and leave tags around every include of
// src, each taking over the include's whitespace trimming on its side.
func rewriteIncludes(src string) string {
	if !strings.Contains(src, "include") {
		return src
	}
	return includeTag.Get().ReplaceAllString(src, "{%${1} "+includeEnterTag+" %}${0}{% "+includeLeaveTag+" ${2}%}")
}

// rewriteFilters puts the entry and leave tags inside every filter and
// spaceless block of src, each taking over the block's whitespace trimming on the body's
// side.
func rewriteFilters(src string) string {
	if !strings.Contains(src, "filter") && !strings.Contains(src, "spaceless") {
		return src
	}
	src = filterOpen.Get().ReplaceAllStringFunc(src, func(m string) string {
		if strings.HasSuffix(m, "-%}") {
			return m[:len(m)-3] + "%}{% " + filterEnterTag + " -%}"
		}
		return m + "{% " + filterEnterTag + " %}"
	})
	return filterClose.Get().ReplaceAllStringFunc(src, func(m string) string {
		if strings.HasPrefix(m, "{%-") {
			return "{%- " + filterLeaveTag + " %}{%" + m[3:]
		}
		return "{% " + filterLeaveTag + " %}" + m
	})
}

// region is a macro body or an include between its entry and leave tags:
// entering spends a step and a level of depth; its writes are charged.
type region struct {
	what string // what nests: "macro calls" or "includes"
	loop string // what recursing looks like
	tok  *pongo2.Token
	body *pongo2.NodeWrapper
}

func (n *region) Execute(ctx *pongo2.ExecutionContext, w pongo2.TemplateWriter) *pongo2.Error {
	b := budgetOf(ctx)
	if b == nil {
		return n.body.Execute(ctx, w)
	}
	if err := b.step(); err != nil {
		return ctx.OrigError(err, n.tok)
	}
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > MaxMacroDepth {
		return ctx.OrigError(b.fail("%s nest deeper than %d levels (%s itself without end?)", n.what, MaxMacroDepth, n.loop), n.tok)
	}
	return n.body.Execute(ctx, heldBy(b, w))
}

// regionParser parses an entry tag and the body up to its leave tag.
func regionParser(leave, what, loop string) pongo2.TagParser {
	return func(doc *pongo2.Parser, start *pongo2.Token, args *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
		if args.Remaining() > 0 {
			return nil, args.Error("takes no arguments", nil)
		}
		body, end, err := doc.WrapUntilTag(leave)
		if err != nil {
			return nil, err
		}
		if end.Remaining() > 0 {
			return nil, end.Error("takes no arguments", nil)
		}
		return &region{what: what, loop: loop, tok: start, body: body}, nil
	}
}

// strayLeave is a leave tag met outside its region: it does nothing.
type strayLeave struct{}

func (strayLeave) Execute(*pongo2.ExecutionContext, pongo2.TemplateWriter) *pongo2.Error { return nil }

func strayLeaveParser(_ *pongo2.Parser, _ *pongo2.Token, _ *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
	return strayLeave{}, nil
}
