package host

import (
	"testing"

	"go.starlark.net/lib/json"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The checked + and * give back the steps their rewrite adds: a script
// counts as many steps as it does unrewritten, as upstream counts them
// (conformance star-budget).
func TestStarlarkStepsAsPlain(t *testing.T) {
	for _, body := range []string{
		"pass",
		"a = x + y",
		"a = x * y",
		"x += y",
		"x *= y",
		`d["k"] += y`,
		`d["n"]["m"] *= 2`,
		"o.append(x + y)",
		"a = x + y + z * 2",
		"a = [x + y for i in range(3)]",
		"for i in range(10):\n        x += i * 2",
		`s = "a" + "b" * 3`,
		"if x + y > 2:\n        a = (x + y) * (z + 1)",
		`a = "%d-%d" % (x, y)`,
		`a = "%d"
    a %= x`,
		`a = ",".join(["a", "b"])`,
		`a = "a-b".replace("-", "+").split("+")`,
		`a = "{}{}".format(x, y).splitlines()`,
		"o.extend([x, y])",
		`a = str(o) + repr(d) + json.encode(d)`,
		`a = getattr("ab", "join")(["x", "y"])`,
		"a = x << 3",
		"x <<= y",
		`a = int("12") * int(x = "3", base = 8)`,
		// targets hoistTargets sets apart
		`d[str("k")] += y`,
		"o.append(x)\n    o[-1] *= 3",
		`(d["k"]) += y`,
		`d[str("n")][str("m")] += x + y`,
		"l = [[1]]\n    for i in range(3):\n        l[i - i] += [i]",
		// comparisons, in, subscripts and dict keys (starlark_walk.go)
		"a = x == y",
		"a = x != y or x < y",
		"a = x <= y and x > y or x >= y",
		"if x in o:\n        a = 1",
		"a = x not in o",
		"if x not in o:\n        a = 1",
		"if not x in o and y not in o:\n        a = 1",
		"while x < 3:\n        x += 1",
		"a = [i for i in range(5) if i > x]",
		"a = x if x >= y else y",
		`a = d["k"] + d[str("k")]`,
		"l = [1, 2]\n    l[x - 1] = l[y - 1]",
		"l = [1, 2]\n    l[x] += l[-1]",
		`a = {x: y, "k": z, -1: 0}`,
		"a = {i: i for i in range(3)}",
		"a = sorted([y, x], key = lambda v: -v)",
		"a = max(x, y) + min([x, y])",
		"a = [x, y].index(y)",
		"o.append(x)\n    o.remove(x)",
		`a = d.get("k", 0) + d.setdefault("q", 1) + d.pop("q")`,
		"s = set([x]) | set([y])\n    s.add(z)\n    s.update([x])\n    a = s - set([x])",
		"a = x - y",
		"x -= y",
		"l = [1, 2]\n    l[len(l) - 1] -= 1\n    l[len(l) - 1] -= x",
		"x |= y",
		"x ^= y & z",
		`d |= {"z": 1}`,
		"e = dict(d)\n    e.update(k = 2)",
	} {
		src := []byte("o = []\nG = 1 + 2\ndef f():\n    x = 1\n    y = 2\n    z = 3\n    d = {\"k\": 1, \"n\": {\"m\": 2}}\n    " + body + "\nf()\n")
		opts := &syntax.FileOptions{Set: true, While: true}
		m := &memBudget{}
		steps := func(prog *starlark.Program, pre starlark.StringDict) uint64 {
			// counting from stepCredit as a run's thread does; the
			// checks give their steps back to th
			th := &starlark.Thread{Steps: stepCredit}
			m.th = th
			if _, err := prog.Init(th, pre); err != nil {
				t.Fatalf("%q: %v", body, err)
			}
			return th.Steps - stepCredit
		}
		f, err := opts.Parse("x.star", src, 0)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		plainPre := starlark.StringDict{"json": json.Module}
		plain, err := starlark.FileProgram(f, plainPre.Has)
		if err != nil {
			t.Fatal(err)
		}
		pre := starlark.StringDict{"json": json.Module}
		m.predeclare(pre)
		checked, err := checkedProgram(opts, "x.star", src, pre)
		if err != nil {
			t.Fatal(err)
		}
		if p, c := steps(plain, plainPre), steps(checked, pre); p != c {
			t.Errorf("%q: %d steps rewritten, %d as written", body, c, p)
		}
	}
}
