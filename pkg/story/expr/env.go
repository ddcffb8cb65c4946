package expr

import (
	"maps"

	"github.com/expr-lang/expr/ast"
)

// Env is the evaluation environment: root name -> value. The roots a guard
// may reach into are world, slots, event, run, args, menu, item, proposal,
// inbox, workspace and result; pongo2 templates also see state and the view
// helper functions.
type Env = map[string]any

// compileEnv declares every root as a map so member access type-checks as
// "unknown" rather than failing; undeclared identifiers are allowed too.
var compileEnv = func() map[string]any {
	m := make(map[string]any, len(roots))
	for _, r := range roots {
		m[r] = map[string]any{}
	}
	return m
}()

// withNeeded returns env with an empty map for every root of need env
// lacks, so that `world.x` on an absent world is nil rather than an error
// (env is never modified; it is copied only when one is missing). all
// (the program reads $env itself) means every root.
func withNeeded(env Env, need []string, all bool) Env {
	if all {
		need = roots
	}
	for _, r := range need {
		if _, ok := env[r]; !ok {
			out := make(Env, len(env)+len(need))
			maps.Copy(out, env)
			for _, r := range need {
				if _, ok := out[r]; !ok {
					out[r] = map[string]any{}
				}
			}
			return out
		}
	}
	return env
}

// rootUse collects the roots a compiled program names; all is set when
// it reads $env other than as a bare-name lookup's argument (which reads
// only names that are not roots).
type rootUse struct {
	isRoot map[string]bool
	seen   map[string]bool
	need   []string
	all    bool
	lookup map[ast.Node]bool // the $env arguments of bare-name lookups
}

func (u *rootUse) Visit(n *ast.Node) {
	switch t := (*n).(type) {
	case *ast.CallNode:
		if id, ok := t.Callee.(*ast.IdentifierNode); ok && id.Value == undefFn && len(t.Arguments) > 0 {
			u.lookup[t.Arguments[0]] = true
		}
	case *ast.IdentifierNode:
		switch {
		case t.Value == "$env":
			if !u.lookup[t] {
				u.all = true
			}
		case u.isRoot[t.Value] && !u.seen[t.Value]:
			u.seen[t.Value] = true
			u.need = append(u.need, t.Value)
		}
	}
}

// usedRoots returns the roots the program tree names (each once) and
// whether it reads $env as a whole.
func usedRoots(node ast.Node) (need []string, all bool) {
	u := &rootUse{isRoot: rootSet, seen: map[string]bool{}, lookup: map[ast.Node]bool{}}
	// A call is visited after its arguments: mark the lookups first.
	ast.Walk(&node, visitFunc(func(n *ast.Node) {
		if _, ok := (*n).(*ast.CallNode); ok {
			u.Visit(n)
		}
	}))
	ast.Walk(&node, u)
	return u.need, u.all
}

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }
