package host

import (
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"kitsoki/internal/testing/storytest"
)

// TestStarlarkChecksAllocateNothing: a checked comparison, in or
// subscript of scalars allocates nothing (a builtin call allocated its
// argument tuple: 1.5 million allocations for 300,000 iterations of
// BenchmarkStarlarkCompareLoop's loop). 30,000 iterations of three
// checks each stay far below one allocation a check.
func TestStarlarkChecksAllocateNothing(t *testing.T) {
	script := "def main(ctx):\n    xs = [i for i in range(100)]\n    seen = {}\n    hits = 0\n" +
		"    for j in range(300):\n        for i in range(100):\n" +
		"            if xs[i] == j or i in seen:\n                hits += 1\n" +
		"            if i < 10:\n                seen[i] = True\n    return {\"hits\": hits}\n"
	dir := storytest.TempTree(t, map[string]string{
		"cmp.star":      script,
		"cmp.star.yaml": "inputs: {}\noutputs:\n  hits: {type: int}\n",
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	args := map[string]any{"script": "cmp.star"}
	var hits any
	allocs := testing.AllocsPerRun(1, func() { hits = mustOK(t, h, starEnv(dir), args)["hits"] })
	if hits != 3081 { // 1 at j = 0, 10 a j after, 1 more for 10 <= j < 100
		t.Errorf("hits %v", hits)
	}
	if allocs > 10_000 {
		t.Errorf("%.0f allocations for 90,000 checks", allocs)
	}
}

// TestStarlarkChecksNest: the halves of OP[x][y] nest as the operators
// do (y's own checks, a recursive call, a comprehension), leaving no
// operand pending, and a module's checks give their steps back to the
// module's thread. (The steps of a whole file are not compared here: a
// jump's operand is padded with NOPs to 4 bytes, which run when it falls
// through, and the rewritten file is longer, so a jump to an address past
// 127 takes a NOP less each time, rewritten as by the calls before:
// TestStarlarkStepsAsPlain compares small files.)
func TestStarlarkChecksNest(t *testing.T) {
	src := "def f(n):\n    if n < 1:\n        return [0]\n    r = f(n - 1)\n    return r + [n == len(r), [n] < [n + 1], n in r]\n" +
		"x = f(4)\n" +
		"y = (x == (x < x)) in [True, False]\n" +
		"z = [a == (b in [a, (a < b) == (b < a)]) for a in range(3) for b in range(3)]\n" +
		"w = {k: k == x[0] for k in x[1:3]}\n"
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	globals := func(prog *starlark.Program, pre starlark.StringDict, m *memBudget) string {
		th := &starlark.Thread{Steps: stepCredit}
		if m != nil {
			m.th = th
		}
		g, err := prog.Init(th, pre)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, name := range []string{"x", "y", "z", "w"} {
			fmt.Fprintf(&out, "%s=%s\n", name, g[name])
		}
		if m != nil && len(m.pending) != 0 {
			t.Errorf("left operands pending: %v", m.pending)
		}
		return out.String()
	}
	f, err := opts.Parse("n.star", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := starlark.FileProgram(f, starlark.StringDict{}.Has)
	if err != nil {
		t.Fatal(err)
	}
	m := &memBudget{}
	pre := starlark.StringDict{}
	m.predeclare(pre)
	checked, err := checkedProgram(opts, "n.star", []byte(src), pre)
	if err != nil {
		t.Fatal(err)
	}
	if pg, cg := globals(plain, nil, nil), globals(checked, pre, m); pg != cg {
		t.Errorf("rewritten:\n%s\nas written:\n%s", cg, pg)
	}

	// the same as a module a script loads, with a step limit just over
	// the steps the module and main take as written: a module's checks
	// that gave their steps back to the loading thread (whose count the
	// module's overwrites) would pass it
	mod := "def g(n):\n    c = 0\n    for i in range(n):\n        if i == c or i in [c]:\n            c += 1\n    return c\n\nG = g(2000)\n"
	main := "load(\"m.star\", \"G\")\n\ndef main(ctx):\n    return {\"n\": G}\n"
	dir := storytest.TempTree(t, map[string]string{"m.star": mod, "main.star": main, "main.star.yaml": "inputs: {}\noutputs:\n  n: {type: int}\n"})
	steps := plainSteps(t, mod, main)
	ok := NewStarlarkRun(StarlarkOptions{NoNetwork: true, MaxSteps: steps + 3})
	if d := mustOK(t, ok, starEnv(dir), map[string]any{"script": "main.star"}); d["n"] != 2000 {
		t.Errorf("module: %v", d)
	}
	short := NewStarlarkRun(StarlarkOptions{NoNetwork: true, MaxSteps: steps - 1})
	wantDomainErr(t, short, starEnv(dir), map[string]any{"script": "main.star"}, "one step short", "too many steps")
}

// plainSteps is the steps main (loading mod as m.star) and its main(None)
// take unrewritten.
func plainSteps(t *testing.T, mod, main string) uint64 {
	t.Helper()
	load := func(th *starlark.Thread, _ string) (starlark.StringDict, error) {
		return starlark.ExecFileOptions(&syntax.FileOptions{}, th, "m.star", mod, nil)
	}
	th := &starlark.Thread{Load: load}
	g, err := starlark.ExecFileOptions(&syntax.FileOptions{}, th, "main.star", main, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := starlark.Call(th, g["main"], starlark.Tuple{starlark.None}, nil); err != nil {
		t.Fatal(err)
	}
	return th.Steps
}
