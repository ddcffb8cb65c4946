package expr

import (
	"strings"
	"sync"

	"github.com/flosch/pongo2/v6"
)

// kitsoki's ifchanged tag: pongo2's syntax and output, but what it last
// saw belongs to one render (pongo2 keeps it in the compiled template, so
// a second render of a view compared with the first), the body it renders
// to compare is charged to the render's held budget (pongo2 buffered it
// whole), and a watched value unchanged with no {% else %} renders nothing
// (pongo2 ran the missing else block: a nil pointer).

type ifchangedNode struct {
	tok       *pongo2.Token
	watched   []pongo2.IEvaluator
	then, els *pongo2.NodeWrapper
	mu        sync.Mutex // guards fallback, the state outside a budgeted render
	fallback  ifchangedSeen
}

// ifchangedSeen is what a node saw last in one render.
type ifchangedSeen struct {
	content string
	values  []*pongo2.Value
	set     bool
}

// seen returns the node's state in this render, and a function to unlock
// it when it is the node's own.
func (n *ifchangedNode) seen(ctx *pongo2.ExecutionContext) (*ifchangedSeen, func()) {
	if b := budgetOf(ctx); b != nil {
		if b.ifchanged == nil {
			b.ifchanged = map[*ifchangedNode]*ifchangedSeen{}
		}
		s := b.ifchanged[n]
		if s == nil {
			s = &ifchangedSeen{}
			b.ifchanged[n] = s
		}
		return s, func() {}
	}
	n.mu.Lock()
	return &n.fallback, n.mu.Unlock
}

func (n *ifchangedNode) Execute(ctx *pongo2.ExecutionContext, w pongo2.TemplateWriter) *pongo2.Error {
	seen, done := n.seen(ctx)
	defer done()
	if len(n.watched) == 0 {
		var body strings.Builder
		var into pongo2.TemplateWriter = &body
		if b := budgetOf(ctx); b != nil {
			into = &heldWriter{b: b, w: &body}
		}
		if err := n.then.Execute(ctx, into); err != nil {
			return err
		}
		if b := budgetOf(ctx); b != nil && b.err != nil {
			return ctx.OrigError(b.err, n.tok)
		}
		if !seen.set || body.String() != seen.content {
			_, _ = w.WriteString(body.String())
			seen.content, seen.set = body.String(), true
		}
		return nil
	}
	now := make([]*pongo2.Value, len(n.watched))
	for i, e := range n.watched {
		v, err := e.Evaluate(ctx)
		if err != nil {
			return err
		}
		now[i] = v
	}
	changed := !seen.set
	for i, old := range seen.values {
		if !old.EqualValueTo(now[i]) {
			changed = true
			break
		}
	}
	seen.values, seen.set = now, true
	switch {
	case changed:
		return n.then.Execute(ctx, w)
	case n.els != nil:
		return n.els.Execute(ctx, w)
	}
	return nil
}

func ifchangedTagParser(doc *pongo2.Parser, start *pongo2.Token, args *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
	n := &ifchangedNode{tok: start}
	for args.Remaining() > 0 {
		e, err := args.ParseExpression()
		if err != nil {
			return nil, err
		}
		n.watched = append(n.watched, e)
	}
	body, end, err := doc.WrapUntilTag("else", "endifchanged")
	if err != nil {
		return nil, err
	}
	if end.Count() > 0 {
		return nil, end.Error("Arguments not allowed here.", nil)
	}
	n.then = body
	if body.Endtag == "else" {
		if n.els, end, err = doc.WrapUntilTag("endifchanged"); err != nil {
			return nil, err
		}
		if end.Count() > 0 {
			return nil, end.Error("Arguments not allowed here.", nil)
		}
	}
	return n, nil
}
