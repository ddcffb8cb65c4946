package expr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// unsized compiles src as compileWith does but keeps expr-lang's own
// string, split, join, upper, lower, keys, matches and + (no sizeCalls):
// the reference the sized replacements must agree with (keys in any order).
func unsized(src string) (*vm.Program, error) {
	c := newConfig(false)
	tree, err := parser.ParseWithConfig(src, c)
	if err != nil {
		return nil, err
	}
	rewriteBareNames(&tree.Node)
	if _, err := new(checker.Checker).PatchAndCheck(tree, c); err != nil {
		return nil, err
	}
	if err := optimizer.Optimize(&tree.Node, c); err != nil {
		return nil, err
	}
	return compiler.Compile(tree, c)
}

// runUnsized runs prog as Program.eval does, with no byte budget.
func runUnsized(p *Program, prog *vm.Program) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	v, rerr := new(vm.VM).Run(prog, withNeeded(fuzzEnv, p.need, p.allRoots))
	if rerr != nil {
		return nil, evalError(p.src, rerr)
	}
	return v, nil
}

// FuzzSizedAsBuiltins: an expression whose string operations kitsoki
// replaced by counting ones (sized.go) gives what expr-lang's own give,
// value for value and error for error, within the budget.
func FuzzSizedAsBuiltins(f *testing.F) {
	for _, s := range []string{
		`split(world.s, ",")`, `split(world.s, "", 2)`, `join(world.l, "-")`, `join(["a", 1])`,
		`upper(world.s) + lower("Q")`, `string(world.n) + "!"`, `world.n + 1`, `world.s + world.s`,
		`world.missing + "x"`, `string(world.l)`, `string(world.m)`, `upper(world.n)`, `join(world.s)`,
		`world.s matches "x+"`, `world.s matches "("`, `slots.t + 1`, `string(nil) + string(1.5)`,
		`split(slots.t, "l", -1)`, `join(split(slots.t, ""), "|")`, `item.name + item.none`,
		`keys(world)`, `keys(world.s)`, `len(keys(world.m))`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := CompileExpr(src)
		if err != nil || !p.sized {
			return
		}
		ref, rerr := unsized(src)
		if rerr != nil {
			t.Fatalf("%q compiles in kitsoki but not as expr-lang's own: %v", src, rerr)
		}
		got, gerr := p.Eval(fuzzEnv)
		if PastBudget(gerr) || gerr != nil && strings.Contains(gerr.Error(), "the pattern compiles to") {
			return
		}
		want, werr := runUnsized(p, ref)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: kitsoki %#v, %v; expr-lang %#v, %v", src, got, gerr, want, werr)
		}
		if gerr != nil {
			if gerr.Error() != werr.Error() {
				t.Fatalf("%q: kitsoki's error %q, expr-lang's %q", src, gerr, werr)
			}
			return
		}
		if strings.Contains(src, "keys") {
			return // ours sorted (keys_order.go), expr-lang's in Go's map order
		}
		if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
			t.Fatalf("%q = %s, expr-lang's %s", src, g, w)
		}
	})
}
