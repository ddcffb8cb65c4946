package expr

import (
	"maps"

	"github.com/expr-lang/expr/ast"
)

// Env is the evaluation environment: root name -> value (see roots;
// pongo2 templates also see state and the view helpers).
type Env = map[string]any

// compileEnv declares every root as a map so member access type-checks.
var compileEnv = func() map[string]any {
	m := make(map[string]any, len(roots))
	for _, r := range roots {
		m[r] = map[string]any{}
	}
	return m
}()

// withNeeded returns env with an empty map for each root of need (all:
// every root) it lacks, copying env only then.
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

// usedRoots returns the roots the program names (each once) and whether
// it reads $env as a whole (not only as a bare-name lookup's argument).
func usedRoots(node ast.Node) (need []string, all bool) {
	seen := map[string]bool{}
	envs := 0 // the $env reads that are no lookup's argument
	ast.Walk(&node, visitFunc(func(n *ast.Node) {
		switch t := (*n).(type) {
		case *ast.CallNode: // visited after its arguments
			if id, ok := t.Callee.(*ast.IdentifierNode); ok && id.Value == undefFn && len(t.Arguments) > 0 {
				if a, ok := t.Arguments[0].(*ast.IdentifierNode); ok && a.Value == "$env" {
					envs--
				}
			}
		case *ast.IdentifierNode:
			switch {
			case t.Value == "$env":
				envs++
			case rootSet[t.Value] && !seen[t.Value]:
				seen[t.Value] = true
				need = append(need, t.Value)
			}
		}
	}))
	return need, envs > 0
}

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }
