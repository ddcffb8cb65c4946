package expr

import (
	"sync"

	"github.com/flosch/pongo2/v6"
)

// kitsoki's cycle tag: pongo2's syntax and output, but the position in the
// cycle belongs to one render (pongo2 keeps it in the compiled template;
// upstream's renders each start at the first value).

type cycleNode struct {
	tok    *pongo2.Token
	args   []pongo2.IEvaluator
	asName string
	silent bool
	mu     sync.Mutex // guards fallback, the position outside a budgeted render
	// fallback is the position of a render without a budget.
	fallback int
}

// cycleValue is what `as name` binds: it prints the current value.
type cycleValue struct {
	node  *cycleNode
	value *pongo2.Value
}

func (v *cycleValue) String() string { return v.value.String() }

// next returns the node's position in this render and advances it.
func (n *cycleNode) next(ctx *pongo2.ExecutionContext) int {
	if b := budgetOf(ctx); b != nil {
		if b.cycles == nil {
			b.cycles = map[*cycleNode]int{}
		}
		i := b.cycles[n]
		b.cycles[n] = i + 1
		return i
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	i := n.fallback
	n.fallback++
	return i
}

func (n *cycleNode) Execute(ctx *pongo2.ExecutionContext, w pongo2.TemplateWriter) *pongo2.Error {
	if len(n.args) == 0 {
		// pongo2's own loads it and divides by zero when it runs
		return ctx.Error("cycle needs at least one value", n.tok)
	}
	item := n.args[n.next(ctx)%len(n.args)]
	val, err := item.Evaluate(ctx)
	if err != nil {
		return err
	}
	if cv, ok := val.Interface().(*cycleValue); ok {
		// {% cycle name %}: advance the named cycle
		v, err := cv.node.args[cv.node.next(ctx)%len(cv.node.args)].Evaluate(ctx)
		if err != nil {
			return err
		}
		cv.value = v
		if !cv.node.silent {
			_, _ = w.WriteString(v.String())
		}
		return nil
	}
	if n.asName != "" {
		ctx.Private[n.asName] = &cycleValue{node: n, value: val}
	}
	if !n.silent {
		_, _ = w.WriteString(val.String())
	}
	return nil
}

func cycleTagParser(_ *pongo2.Parser, start *pongo2.Token, args *pongo2.Parser) (pongo2.INodeTag, *pongo2.Error) {
	n := &cycleNode{tok: start}
	for args.Remaining() > 0 {
		e, err := args.ParseExpression()
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, e)
		if args.MatchOne(pongo2.TokenKeyword, "as") != nil {
			name := args.MatchType(pongo2.TokenIdentifier)
			if name == nil {
				return nil, args.Error("Name (identifier) expected after 'as'.", nil)
			}
			n.asName = name.Val
			if args.MatchOne(pongo2.TokenIdentifier, "silent") != nil {
				n.silent = true
			}
			break
		}
	}
	if args.Remaining() > 0 {
		return nil, args.Error("Malformed cycle-tag.", nil)
	}
	return n, nil
}
