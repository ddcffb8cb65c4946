package expr

import (
	"fmt"

	"github.com/expr-lang/expr/ast"
)

// Bare names. Upstream evaluates against a struct of the roots, so a bare
// identifier that is none of them (`{{ foo }}`) fails when evaluated.
// [Strict] environments (the engine's guards and effect values, a view
// element's when:) follow upstream; any other reads it as nil.

// upstreamRoots are the bare names upstream's environment has.
var upstreamRoots = toSet([]string{"world", "slots", "event", "run", "args", "menu", "item", "result", "state"})

// unfetchedRoots are roots that compile (upstream declares them) but that
// no run of upstream's gives a value: reaching one in a strict environment
// fails as a bare name does ("cannot fetch inbox from expr.Env"), a view
// element whose when: reads one is hidden (conformance
// untyped-roots-unfetched). Elsewhere they read an empty map.
var unfetchedRoots = toSet([]string{"proposal", "inbox", "workspace"})

// strictKey marks a strict environment; no identifier can spell it.
const strictKey = "kitsoki strict names"

// WhenStateKey holds, in a strict environment, the value a bare `state`
// reads: a view element's when: sees the state upstream (`state != nil`;
// `state.path` is refused there by the whitelist), an engine guard or
// effect value a nil map.
const WhenStateKey = "kitsoki when state"

// undefFn is the function a bare unknown name is rewritten to call.
const undefFn = "__kitsoki_bare_name"

// Strict marks env (and returns it) so that a bare non-root name fails.
func Strict(env Env) Env {
	if env == nil {
		env = Env{}
	}
	env[strictKey] = true
	return env
}

// fetchBare is undefFn: the name's value, or in a strict env an error.
func fetchBare(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("internal: bare name lookup with %d arguments", len(params))
	}
	env, _ := params[0].(map[string]any)
	name, _ := params[1].(string)
	if env[strictKey] != true {
		if v, ok := env[name]; ok || !unfetchedRoots[name] {
			return v, nil
		}
		return map[string]any{}, nil
	}
	if upstreamRoots[name] {
		if v, ok := env[WhenStateKey]; ok && name == "state" {
			return v, nil // a view's when: sees the state
		}
		return map[string]any(nil), nil // state: a nil map upstream ("null" in a string)
	}
	if v, ok := env[name]; ok {
		return v, nil
	}
	return nil, &BareNameError{Name: name}
}

// BareNameError is the evaluation of a bare name that is no root.
type BareNameError struct{ Name string }

func (e *BareNameError) Error() string {
	if unfetchedRoots[e.Name] {
		return fmt.Sprintf("cannot fetch %s: guards and {{ }} values have no %s at run time (the existing engine fails the same: \"cannot fetch %s from expr.Env\"); a view's or say:'s text reads it as empty", e.Name, e.Name, e.Name)
	}
	return fmt.Sprintf("cannot fetch %s: %q is not a root (world, slots, args, result, event, item, menu, run, state); write world.%s for a world key or slots.%s for a slot", e.Name, e.Name, e.Name, e.Name)
}

// rewriteBareNames replaces every identifier that is neither a callee, a
// member access's object, a root nor $env with a call of undefFn, so it
// fails only where the evaluation reaches it (`world.ok || foo` does not);
// an unfetchedRoots root is replaced too, as a member access's object as
// well (`inbox.x` fails upstream at inbox).
func rewriteBareNames(node *ast.Node) {
	callees, called := map[ast.Node]bool{}, map[ast.Node]bool{}
	ast.Walk(node, visitFunc(func(n *ast.Node) {
		switch t := (*n).(type) {
		case *ast.CallNode:
			callees[unchain(t.Callee)] = true
			called[unchain(t.Callee)] = true
			callees[memberRoot(t.Callee)] = true
		case *ast.MemberNode:
			callees[memberRoot(t)] = true
		case *ast.SliceNode:
			callees[memberRoot(t)] = true
		}
	}))
	ast.Walk(node, visitFunc(func(n *ast.Node) {
		id, ok := (*n).(*ast.IdentifierNode)
		if !ok || id.Value == "$env" {
			return
		}
		if unfetchedRoots[id.Value] {
			if called[id] {
				return
			}
		} else if callees[id] || rootSet[id.Value] {
			return
		}
		call := &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: undefFn},
			Arguments: []ast.Node{&ast.IdentifierNode{Value: "$env"}, &ast.StringNode{Value: id.Value}},
		}
		ast.Patch(n, call)
		for _, a := range call.Arguments {
			a.SetLocation(id.Location())
		}
		call.Callee.SetLocation(id.Location())
	}))
}

// BareNames returns the program's non-root bare names, once each, in order
// (not the unfetchedRoots, which are roots).
func (p *Program) BareNames() []string { return bareNames(p) }

// bareNames is the non-root bare names of progs, once each, in order.
func bareNames(progs ...*Program) []string {
	return undefNames(progs, func(name string) bool { return !upstreamRoots[name] && !unfetchedRoots[name] })
}

// undefNames is the names progs read through the calls rewriteBareNames
// put in place of a name (undefFn) that keep holds, once each, in order.
func undefNames(progs []*Program, keep func(string) bool) []string {
	var out []string
	walkProgs(progs, func(n ast.Node) {
		call, ok := n.(*ast.CallNode)
		if !ok || len(call.Arguments) != 2 {
			return
		}
		if id, ok := call.Callee.(*ast.IdentifierNode); ok && id.Value == undefFn {
			if s, ok := call.Arguments[1].(*ast.StringNode); ok && keep(s.Value) {
				out = addOnce(out, s.Value)
			}
		}
	})
	return out
}

// BareNames returns the template's non-root bare names, once each, in order.
func (t *Template) BareNames() []string { return bareNames(t.progs...) }

// UnfetchedRoots returns the unfetchedRoots the program reads (inbox,
// proposal, workspace), once each, in order: a strict evaluation that
// reaches one fails.
func (p *Program) UnfetchedRoots() []string { return unfetchedNames(p) }

// UnfetchedRoots returns the unfetchedRoots the template reads, once each, in order.
func (t *Template) UnfetchedRoots() []string { return unfetchedNames(t.progs...) }

func unfetchedNames(progs ...*Program) []string {
	return undefNames(progs, func(name string) bool { return unfetchedRoots[name] })
}
