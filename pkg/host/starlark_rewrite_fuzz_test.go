package host

import (
	"strings"
	"testing"

	"go.starlark.net/lib/json"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// FuzzCheckedRewrite: a script that compiles as written compiles
// rewritten (unless it names a reserved name or holds a long digit run),
// and both end alike: the same globals, or the same error, whenever the
// rewritten one stays inside the budget and the step limit.
func FuzzCheckedRewrite(f *testing.F) {
	for _, s := range []string{
		"x = 1\nx += 2\n",
		"a = [\"x\"]\ndef f():\n    return 0\na[f()] += \"y\"\n",
		"l = [[1]]\nl[-1] += [2]\n(l[0]) *= 2\n",
		"d = {\"k\": {\"m\": 1}}\nd[str(\"k\")][\"m\"] %= 3\n",
		"s = struct(x = 1)\ns.x += 1\n",
		"def g(n):\n    r = [0]\n    for i in range(n):\n        r[i - i] += i\n    return r\nz = g(5)\n",
		"q = \"%d\" % 3\nw = \"a\" * 3 + \",\".join([\"b\"])\n",
		"n = 1 << 10\nm = n * n\nk = int(\"12\")\n",
		"a = [1]\na[len(a) - 1] <<= 3\n",
		"a = [[1], 2]\nb = a == [[1], 2]\nc = a < [[1], 3]\nd = 2 in a\ne = 3 not in a\n",
		"t = (1, (2,))\nd = {t: 1, \"k\": 2}\nd[t] += 1\nx = d.get(t)\ny = t in d\nz = {k: 1 for k in [t]}\n",
		"s = set([1, 2])\ns |= set([3])\nu = s - set([1])\nv = s & u\nw = sorted(s, key = lambda e: -e)\nm = max(s)\n",
		"l = [3, 1]\ni = l.index(1)\nl.remove(3)\nif 1 not in l or l > [0]:\n    q = min(l, key = lambda e: e)\n",
		"d = {\"a\": [1]}\nd |= {\"b\": 2}\nk = d[\"a\"] != [1] or d == {}\nx = [1] < 2\n",
		"T = (1,)\nfor i in range(12):\n    T = (T,) * 2\ndef f(p = T):\n    return p\n",
	} {
		f.Add(s)
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || strings.Contains(src, reservedPrefix) {
			return
		}
		file, err := opts.Parse("f.star", src, 0)
		if err != nil {
			return
		}
		plainPre := starlark.StringDict{"json": json.Module, "struct": starlark.NewBuiltin("struct", starlarkstruct.Make)}
		plain, err := starlark.FileProgram(file, plainPre.Has)
		if err != nil {
			return
		}
		pre := starlark.StringDict{"json": json.Module, "struct": starlark.NewBuiltin("struct", starlarkstruct.Make)}
		m := &memBudget{limit: 1 << 20} // a value of 1 MiB or two: fuzzing stays fast
		m.predeclare(pre)
		checked, err := checkedProgram(opts, "f.star", []byte(src), pre)
		if err != nil {
			if !strings.Contains(err.Error(), "digits in a row") {
				t.Fatalf("compiles as written, not rewritten: %v", err)
			}
			return
		}
		run := func(prog *starlark.Program, pre starlark.StringDict) (string, string) {
			th := &starlark.Thread{Steps: stepCredit} // as a run's
			th.SetMaxExecutionSteps(20000 + stepCredit)
			m.th = th // the checks give their steps back to th
			g, err := prog.Init(th, pre)
			var out strings.Builder
			for _, name := range g.Keys() {
				if !strings.HasPrefix(name, reservedPrefix) { // the rewrite's names (hoistTargets, bindChecks)
					out.WriteString(name + "=" + g[name].String() + "\n")
				}
			}
			if err != nil {
				return out.String(), err.Error()
			}
			return out.String(), ""
		}
		cg, cerr := run(checked, pre)
		for _, budget := range []string{"too many steps", "over the limit", "bits, over", "nested over", "made more than", "elements, over the limit"} {
			if strings.Contains(cerr, budget) {
				return // the plain run could take what the budget refused
			}
		}
		pg, perr := run(plain, plainPre)
		if strings.Contains(perr, "too many steps") {
			return
		}
		if cg != pg || cerr != perr {
			t.Fatalf("rewritten: %q %q\nas written: %q %q", cg, cerr, pg, perr)
		}
	})
}
