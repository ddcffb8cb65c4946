package expr

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// roots are the identifiers a guard may reach into (missing ones are empty maps).
var roots = []string{"slots", "world", "event", "run", "args", "menu", "item", "proposal", "inbox", "workspace", "result"}

// builtins are the expr-lang built-in functions a guard may call.
var builtins = []string{"len", "trim", "upper", "lower", "split", "join", "hasPrefix", "hasSuffix", "now", "int", "float", "string", "abs", "round", "type", "get", "keys", "min", "max"}

// viewFunctions are the only non-built-in functions a guard may call.
var viewFunctions = []string{"available", "blocked", "blocked_reason", "intent_status"}

var (
	rootSet    = toSet(roots)
	builtinSet = toSet(builtins)
	viewFnSet  = toSet(viewFunctions)
)

func toSet(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// whitelist returns every violation of a checked tree in post-order,
// without duplicates, and the rune offset of the leftmost (-1: unknown).
func whitelist(root ast.Node) ([]string, int) {
	w := &wlWalker{seen: map[string]bool{}, first: -1, callees: map[ast.Node]bool{}}
	// A method's callee or its object is reported as the call: mark them
	// first (a call is visited after its callee).
	ast.Walk(&root, visitFunc(func(n *ast.Node) {
		if c, ok := (*n).(*ast.CallNode); ok {
			if m, ok := unchain(c.Callee).(*ast.MemberNode); ok {
				w.callees[m], w.callees[unchain(m.Node)] = true, true
			}
		}
	}))
	ast.Walk(&root, w)
	return w.out, w.first
}

type wlWalker struct {
	out     []string
	seen    map[string]bool
	first   int
	callees map[ast.Node]bool
}

func (w *wlWalker) add(at ast.Node, format string, args ...any) {
	m := fmt.Sprintf(format, args...)
	if !w.seen[m] {
		w.seen[m] = true
		w.out = append(w.out, m)
		if at != nil {
			if from := at.Location().From; w.first < 0 || from < w.first {
				w.first = from
			}
		}
	}
}

// Visit checks one node (ast.Walk has visited its children).
func (w *wlWalker) Visit(p *ast.Node) {
	switch n := (*p).(type) {
	case *ast.MemberNode:
		if id, ok := memberRoot(n).(*ast.IdentifierNode); ok && !w.callees[n] && !rootSet[id.Value] {
			w.add(id, "member access on forbidden root %q (allowed: %s)", id.Value, strings.Join(roots, ", "))
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == undefFn || isSizedCall(n) {
			return // a bare name (barename.go) or a sized operation (sized.go)
		}
		if id, ok := unchain(n.Callee).(*ast.IdentifierNode); !ok || !viewFnSet[id.Value] {
			w.add(memberRoot(n.Callee), "forbidden user-defined function call %q (only built-in functions are allowed)", calleeName(n.Callee))
		}
	case *ast.BuiltinNode:
		if !builtinSet[n.Name] {
			w.add(n, "forbidden built-in function %q", n.Name)
		}
	case *ast.PredicateNode, *ast.PointerNode:
		w.add(n, "lambda/predicate expressions are not allowed")
	case *ast.VariableDeclaratorNode:
		w.add(n, "variable declarations (let) are not allowed")
	case *ast.MapNode:
		w.add(n, "map literal expressions are not allowed")
	}
}

func unchain(n ast.Node) ast.Node {
	for {
		c, ok := n.(*ast.ChainNode)
		if !ok {
			return n
		}
		n = c.Node
	}
}

// memberRoot returns the innermost object of a member/slice chain.
func memberRoot(n ast.Node) ast.Node {
	for {
		switch m := n.(type) {
		case *ast.MemberNode:
			n = m.Node
		case *ast.SliceNode:
			n = m.Node
		case *ast.ChainNode:
			n = m.Node
		default:
			return n
		}
	}
}

// calleeName renders a callee as the author wrote it ("os.Getenv").
func calleeName(n ast.Node) string {
	switch c := unchain(n).(type) {
	case *ast.IdentifierNode:
		return c.Value
	case *ast.MemberNode:
		if s, ok := c.Property.(*ast.StringNode); ok {
			return calleeName(c.Node) + "." + s.Value
		}
	}
	return n.String()
}
