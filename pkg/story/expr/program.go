package expr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Compile configurations are built once and pooled (expr.Compile builds a
// fresh one per expression); a configuration's type cache is not safe for
// concurrent use, so each serves one compile at a time.
var (
	guardConfigs = sync.Pool{New: func() any { return newConfig(true) }}
	exprConfigs  = sync.Pool{New: func() any { return newConfig(false) }}
)

func newConfig(guard bool) *conf.Config {
	c := conf.CreateNew()
	opts := []expr.Option{
		expr.Env(compileEnv),
		expr.AllowUndefinedVariables(),
		expr.Patch(lenPatch{}),
		expr.Function(undefFn, fetchBare),
	}
	if guard {
		opts = append(opts, expr.AsBool())
	}
	for _, op := range opts {
		op(c)
	}
	addSizedFunctions(c)
	for name := range c.Disabled {
		delete(c.Builtins, name)
	}
	c.Check()
	return c
}

// compileWith is expr.Compile with a prepared configuration.
func compileWith(src string, guard bool) (*vm.Program, error) {
	pool := &exprConfigs
	if guard {
		pool = &guardConfigs
	}
	c := pool.Get().(*conf.Config)
	defer pool.Put(c)
	tree, err := parser.ParseWithConfig(src, c)
	if err != nil {
		return nil, err
	}
	rewriteBareNames(&tree.Node)
	if _, err := new(checker.Checker).PatchAndCheck(tree, c); err != nil {
		return nil, err
	}
	if sizeCalls(&tree.Node) {
		if _, err := new(checker.Checker).Check(tree, c); err != nil {
			return nil, err
		}
	}
	if c.Optimize {
		if err := optimizer.Optimize(&tree.Node, c); err != nil {
			if fe, ok := errors.AsType[*file.Error](err); ok {
				return nil, fe.Bind(tree.Source)
			}
			return nil, err
		}
	}
	return compiler.Compile(tree, c)
}

// Program is a compiled, whitelisted expr-lang expression, safe for concurrent use.
type Program struct {
	src  string
	prog *vm.Program
	// need: the roots the program names (allRoots: it reads $env, so every root).
	need     []string
	allRoots bool
	// sized: it calls a sized function, so an evaluation gets a budget.
	sized bool
	// patterns: what its matches learnt of each pattern text.
	patterns patternCache
}

// Source returns the expression text the program was compiled from.
func (p *Program) Source() string { return p.src }

// Roots returns the roots the program names (world, slots, ...), each
// once, and whether it reads $env as a whole (so it may reach any root).
func (p *Program) Roots() ([]string, bool) { return slices.Clone(p.need), p.allRoots }

// CompileGuard compiles a boolean guard (`when:`): a known non-bool static
// type is a compile error; an unknown one must be bool at run time.
func CompileGuard(src string) (*Program, error) {
	return compile(src, true)
}

// CompileExpr compiles a typed value expression (the inside of {{ }}).
func CompileExpr(src string) (*Program, error) {
	return compile(src, false)
}

func compile(src string, guard bool) (p *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, caught(KindCompile, fmt.Sprintf("expr compile %q", src), "the expression compiler", src, r)
		}
	}()
	if e := checkExprLimits(src); e != nil {
		return nil, e
	}
	prog, cerr := compileWith(src, guard)
	if cerr != nil {
		return nil, compileError(src, cerr)
	}
	if v, at := whitelist(prog.Node()); len(v) > 0 {
		e := &Error{
			Kind: KindWhitelist,
			Msg:  fmt.Sprintf("expr whitelist violation in %q: %s", src, strings.Join(v, "; ")),
			Src:  src,
		}
		if at >= 0 {
			e.Line, e.Col = runeCol(src, byteOffset(src, at))
		}
		return nil, e
	}
	p = &Program{src: src, prog: prog}
	p.need, p.allRoots = usedRoots(prog.Node())
	p.sized = hasSizedCall(prog.Node())
	return p, nil
}

// lenPatch rewrites len(x) to len(x ?? []) so len(nil) is 0.
type lenPatch struct{}

func (lenPatch) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BuiltinNode)
	if !ok || b.Name != "len" || len(b.Arguments) != 1 {
		return
	}
	arg := b.Arguments[0]
	if _, isArr := arg.(*ast.ArrayNode); isArr {
		return
	}
	wrapped := &ast.BinaryNode{Operator: "??", Left: arg, Right: &ast.ArrayNode{}}
	wrapped.SetLocation(arg.Location())
	wrapped.Right.SetLocation(arg.Location())
	b.Arguments[0] = wrapped
}

// Eval evaluates the program against env (missing roots are empty maps).
func (p *Program) Eval(env Env) (out any, err error) {
	return p.eval(env, MaxEvalBytes, 0)
}

// eval is Eval with one evaluation's budgets: bytes of text and lists
// built (MaxEvalBytes) and elems, expr-lang's own memory budget (0: its
// default, a million range elements).
func (p *Program) eval(env Env, bytes int64, elems uint) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, caught(KindEval, fmt.Sprintf("expr eval %q", p.src), "the expression evaluator", p.src, r)
		}
	}()
	if ctx, _ := env[ContextKey].(context.Context); ctx != nil && ctx.Err() != nil {
		// an evaluation cannot be interrupted: the run's end is heard
		// before each (a story of many costly guards outlives --timeout)
		return nil, &Error{Kind: KindEval, Msg: fmt.Sprintf("expr eval %q: not evaluated: the run ended (%v)", p.src, context.Cause(ctx)), Src: p.src, Err: ctx.Err()}
	}
	env = withNeeded(env, p.need, p.allRoots)
	if p.sized {
		env = withBudget(env, bytes, &p.patterns)
	}
	v, rerr := (&vm.VM{MemoryBudget: elems}).Run(p.prog, env)
	if rerr != nil {
		return nil, evalError(p.src, rerr)
	}
	return v, nil
}

// EvalBool evaluates the program and requires a bool result.
func (p *Program) EvalBool(env Env) (bool, error) {
	return p.asBool(p.Eval(env))
}

// asBool is an evaluation's result as a guard's: a bool, or an error.
func (p *Program) asBool(v any, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, &Error{Kind: KindEval, Msg: fmt.Sprintf("expr eval %q: expected true/false, got %s", p.src, describe(v)), Src: p.src}
	}
	return b, nil
}

// byteOffset converts a rune offset in s to a byte offset.
func byteOffset(s string, runes int) int {
	n := 0
	for i := range s {
		if n == runes {
			return i
		}
		n++
	}
	return len(s)
}
