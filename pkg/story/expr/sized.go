package expr

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/vm/runtime"

	"kitsoki/internal/recost"
)

// MaxEvalBytes bounds what one evaluation of a guard or value builds with
// the operations that make text or lists from text or lists (string,
// split, join, upper, lower, keys and + on text), counting each result's bytes
// and listElemBytes a list element (so at most a million elements, as
// expr-lang's own budget allows a range). expr-lang bounds only ranges and its predicates:
// without this, split(string(...), "") nested three times multiplies a
// text's size, and + on a world value repeated copies it quadratically,
// neither interruptible by --timeout (docs/compat/hardening.md).
const MaxEvalBytes = 64 << 20

// listElemBytes is what a list element built counts towards MaxEvalBytes:
// its headers and what formatting it with string() costs.
const listElemBytes = 64

// sizeKey is the env key of one evaluation's sizeBudget; no name a story
// writes can reach it.
const sizeKey = "kitsoki size budget"

// sizedPrefix starts the names of the functions sizeCalls puts in place of
// the sized operations: the space keeps a story from calling one.
const sizedPrefix = "kitsoki sized "

// sizedFuncType is the type of a sized function.
var sizedFuncType = reflect.TypeOf((func(...any) (any, error))(nil))

// sizedOps are the built-ins sizeCalls charges; "+" and "matches" are the
// operators ("matches" is not charged but refused past recost's bound: a
// regular expression match cannot be interrupted).
var sizedOps = []string{"string", "split", "join", "upper", "lower", "keys", "+", "matches"}

// sizeBudget is what one evaluation may still build, in bytes, and its
// program's patternCache.
type sizeBudget struct {
	left     int64
	patterns *patternCache
}

// cache is the evaluation's patternCache (nil: none, each pattern compiled).
func (b *sizeBudget) cache() *patternCache {
	if b == nil {
		return nil
	}
	return b.patterns
}

// SizeError is an evaluation that would build more than MaxEvalBytes.
type SizeError struct{ Op string }

func (e *SizeError) Error() string {
	return fmt.Sprintf("memory budget exceeded: %s would take this expression past %d MiB of text and lists built (string, split, join, upper, lower, keys and + count what they make); build smaller values, or compute them in a Starlark script", e.Op, MaxEvalBytes>>20)
}

// take spends n bytes for op.
func (b *sizeBudget) take(op string, n int64) error {
	if b == nil {
		return nil
	}
	if b.left -= n; b.left < 0 {
		return &SizeError{Op: op}
	}
	return nil
}

// sizeOf is the bytes a value built by a sized operation is charged: a
// string's length, listElemBytes a list element.
func sizeOf(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []string:
		return listElemBytes * int64(len(x))
	case []any:
		return listElemBytes * int64(len(x))
	}
	return 0
}

// addSizedFunctions registers the functions sizeCalls calls.
func addSizedFunctions(c *conf.Config) {
	if c.Functions == nil {
		c.Functions = conf.FunctionsTable{}
	}
	for _, op := range sizedOps {
		name := sizedPrefix + op
		c.Functions[name] = &builtin.Function{
			Name:     name,
			Func:     sizedFunc(op),
			Validate: func([]reflect.Type) (reflect.Type, error) { return anyReflect, nil },
		}
	}
}

// sizedFunc is the function standing for op: its first argument is the
// env (holding the budget), the others op's own.
func sizedFunc(op string) func(args ...any) (any, error) {
	var orig *builtin.Function
	if op != "+" && op != "matches" {
		orig = builtin.Builtins[builtin.Index[op]]
	}
	return func(args ...any) (any, error) {
		env, _ := args[0].(map[string]any)
		b, _ := env[sizeKey].(*sizeBudget)
		args = args[1:]
		// What the operation would build, where knowing it first spares
		// building it: a split's elements, a join's or a +'s text.
		switch op {
		case "split":
			if s, ok := args[0].(string); ok && len(args) == 2 {
				if sep, ok := args[1].(string); ok {
					if err := b.take(op, listElemBytes*int64(strings.Count(s, sep)+1)); err != nil {
						return nil, err
					}
					return orig.Func(args...)
				}
			}
		case "join":
			if len(args) == 2 {
				if err := b.take(op, joinedLen(args[0], args[1])); err != nil {
					return nil, err
				}
				return orig.Func(args...)
			}
		case "+":
			l, lok := args[0].(string)
			r, rok := args[1].(string)
			if lok && rok {
				if err := b.take(op, int64(len(l))+int64(len(r))); err != nil {
					return nil, err
				}
				return l + r, nil
			}
			return runtime.Add(args[0], args[1]), nil
		case "matches":
			return sizedMatches(b, args[0], args[1])
		case "keys":
			out, err := orig.Func(args...)
			if err != nil {
				return nil, err
			}
			sortKeys(out.([]any))
			return out, b.take(op, sizeOf(out))
		}
		var out any
		var err error
		if orig.Fast != nil {
			out = orig.Fast(args[0])
		} else {
			out, err = orig.Func(args...)
		}
		if err == nil {
			err = b.take(op, sizeOf(out))
		}
		return out, err
	}
}

// sizedMatches is `a matches pattern` as expr-lang's VM does it (the
// pattern compiled at compile time when it was a literal), refused when
// its worst case passes recost's bound, or, a pattern built at run time,
// when it is longer or compiles larger than a literal may
// (compilePattern); the program's patternCache (in b) compiles and
// counts each pattern text once.
func sizedMatches(b *sizeBudget, a, pattern any) (any, error) {
	if runtime.IsNil(a) || runtime.IsNil(pattern) {
		return false, nil
	}
	var p *sizedPattern
	if re, ok := pattern.(*regexp.Regexp); ok {
		p = b.cache().get(re.String(), re)
	} else {
		p = b.cache().get(pattern.(string), nil)
	}
	if p.err != nil {
		panic(p.err) // as the VM: its message, at the operator
	}
	if p.refused != nil {
		return nil, fmt.Errorf("matches: %v", p.refused)
	}
	text, isText := a.(string)
	if !isText {
		text = string(a.([]byte))
	}
	if err := recost.Check(p.insts, len(text)); err != nil {
		return nil, fmt.Errorf("matches: %v", err)
	}
	return p.re.MatchString(text), nil
}

// joinedLen is the length of join(list, glue) when list holds strings.
func joinedLen(list, glue any) int64 {
	g, _ := glue.(string)
	var n, total int64
	switch l := list.(type) {
	case []string:
		for _, s := range l {
			n, total = n+1, total+int64(len(s))
		}
	case []any:
		for _, e := range l {
			s, _ := e.(string)
			n, total = n+1, total+int64(len(s))
		}
	}
	if n > 1 {
		total += (n - 1) * int64(len(g))
	}
	return total
}

// sizeCalls replaces each sized operation of a checked tree (a built-in of
// sizedOps, + on text or on a value of unknown type) with a call of its
// sized function, keeping the node's type; it reports whether it replaced
// any. Run after the check that typed the tree, so no type error is lost.
func sizeCalls(node *ast.Node) bool {
	replaced := false
	ast.Walk(node, visitFunc(func(n *ast.Node) {
		var op string
		var args []ast.Node
		switch t := (*n).(type) {
		case *ast.BuiltinNode:
			if t.Name == "+" || t.Name == "matches" || !slices.Contains(sizedOps, t.Name) {
				return
			}
			op, args = t.Name, t.Arguments
		case *ast.BinaryNode:
			if t.Operator == "matches" {
				op, args = "matches", []ast.Node{t.Left, t.Right}
				if lit, ok := t.Right.(*ast.StringNode); ok {
					re, err := regexp.Compile(lit.Value)
					if err != nil {
						return // the compiler's error
					}
					c := &ast.ConstantNode{Value: re}
					c.SetType(reflect.TypeOf(re))
					c.SetLocation(lit.Location())
					args[1] = c
				}
				break
			}
			if t.Operator != "+" || !textOrUnknown(t.Left) || !textOrUnknown(t.Right) {
				return
			}
			if _, lit := t.Left.(*ast.StringNode); lit {
				if _, lit := t.Right.(*ast.StringNode); lit {
					return // folded at compile time
				}
			}
			op, args = "+", []ast.Node{t.Left, t.Right}
		default:
			return
		}
		env := &ast.IdentifierNode{Value: "$env"}
		call := &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: sizedPrefix + op},
			Arguments: append([]ast.Node{env}, args...),
		}
		call.SetLocation((*n).Location())
		env.SetLocation((*n).Location())
		call.Callee.SetLocation((*n).Location())
		// A known type is kept (the checker then takes it as the call's
		// and visits neither callee nor arguments, typed already).
		if t := (*n).Type(); t != nil && t != anyReflect {
			call.SetType(t)
			call.Callee.SetType(sizedFuncType)
		}
		ast.Patch(n, call)
		replaced = true
	}))
	return replaced
}

// textOrUnknown reports whether a checked node is text or of a type known
// only at run time.
func textOrUnknown(n ast.Node) bool {
	t := n.Type()
	return t == nil || t.Kind() == reflect.String || t.Kind() == reflect.Interface
}

// hasSizedCall reports whether a compiled tree calls a sized function.
func hasSizedCall(node ast.Node) bool {
	return ast.Find(node, func(n ast.Node) bool {
		c, ok := n.(*ast.CallNode)
		return ok && isSizedCall(c)
	}) != nil
}

// withBudget is env with a fresh budget of n bytes and the program's
// patterns (a copy).
func withBudget(env Env, n int64, patterns *patternCache) Env {
	out := make(Env, len(env)+1)
	maps.Copy(out, env)
	out[sizeKey] = &sizeBudget{left: n, patterns: patterns}
	return out
}

// isSizedCall reports whether a call is one sizeCalls made.
func isSizedCall(n *ast.CallNode) bool {
	id, ok := n.Callee.(*ast.IdentifierNode)
	return ok && strings.HasPrefix(id.Value, sizedPrefix)
}
