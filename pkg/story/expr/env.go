package expr

import (
	"maps"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker/nature"
	"github.com/expr-lang/expr/types"
)

// Env is the evaluation environment: root name -> value (see roots;
// pongo2 templates also see state and the view helpers).
type Env = map[string]any

// compileEnv declares every root as a map so member access type-checks,
// except the untyped ones, which are declared as Go's any (as upstream's
// environment struct does) and so take any operator at compile time.
var compileEnv = func() types.Map {
	m := make(types.Map, len(roots))
	for _, r := range roots {
		if untypedRoots[r] {
			m[r] = anyType{}
			continue
		}
		m[r] = types.TypeOf(map[string]any{})
	}
	return m
}()

// anyType is Go's interface{} as an expr-lang type (types.Any is the
// checker's unknown, which refuses arithmetic).
type anyType struct{}

var anyReflect = reflect.TypeFor[any]()

func (anyType) Nature() nature.Nature   { return nature.FromType(anyReflect) }
func (anyType) Equal(t types.Type) bool { return true }
func (anyType) String() string          { return "interface {}" }

// untypedRoots are the roots upstream declares with no type: a range's
// item (an element of any type: `{{ range world.l }}{{ item * 2 }}{{ end }}`)
// and inbox, proposal and workspace; the others are maps there too.
var untypedRoots = toSet([]string{"item", "proposal", "inbox", "workspace"})

// nilRoots are the roots that read nil, not an empty map, when the env
// lacks them: item outside a range is nil upstream (`item == nil`,
// `len(item) == 0`; `item.x` cannot fetch from nil).
var nilRoots = toSet([]string{"item"})

// nilMapRoots are the roots that read a nil map when the env lacks them:
// upstream's environment holds them as maps it fills only where they
// mean something (a prompt's args, a bind's result, a view's menu), so
// elsewhere `args == nil` holds and `{{ result }}` is null (conformance
// roots-nil-maps); `args.x` is nil, not an error.
var nilMapRoots = toSet([]string{"args", "menu", "result"})

// withNeeded returns env with an empty map (nil for a nilRoots root, a
// nil map for a nilMapRoots one) for each root of need (all: every root)
// it lacks, copying env only then.
func withNeeded(env Env, need []string, all bool) Env {
	if all {
		need = roots
	}
	for _, r := range need {
		if _, ok := env[r]; !ok {
			out := make(Env, len(env)+len(need))
			maps.Copy(out, env)
			for _, r := range need {
				if _, ok := out[r]; !ok && nilRoots[r] {
					out[r] = nil
				} else if !ok && nilMapRoots[r] {
					out[r] = map[string]any(nil)
				} else if !ok {
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
			if id, ok := t.Callee.(*ast.IdentifierNode); ok && (id.Value == undefFn || isSizedCall(t)) && len(t.Arguments) > 0 {
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
