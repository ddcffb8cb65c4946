package host

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// heapBytes is the heap's object bytes now (after a collection).
func heapBytes() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestStarlarkMemoryBudget: [0]*400000000 (6.4 GB, the attack that ended
// in a fatal out-of-memory), doubling a string or a list in a loop (+=,
// extend) and json.decode of a long list are script errors (into
// on_error), and the heap stays small. The per-value limit
// is lowered to 1 MiB, so the doubling loops stop there rather than at
// 64 MiB (TestStarlarkValueLimitIsTheDocumented holds the product's).
func TestStarlarkMemoryBudget(t *testing.T) {
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	dir := storytest.TempTree(t, map[string]string{
		"rep.star":       "def main(ctx):\n    x = [0]*400000000\n    return {\"n\": len(x)}\n",
		"rep.star.yaml":  sidecar,
		"dbl.star":       "def main(ctx):\n    s = \"xxxxxxxx\"\n    for i in range(64):\n        s = s + s\n    return {\"n\": len(s)}\n",
		"dbl.star.yaml":  sidecar,
		"aug.star":       "def main(ctx):\n    l = [1]\n    for i in range(64):\n        l += l\n    return {\"n\": len(l)}\n",
		"aug.star.yaml":  sidecar,
		"str.star":       "def main(ctx):\n    s = \"ab\" * 2000000000\n    return {\"n\": len(s)}\n",
		"str.star.yaml":  sidecar,
		"rng.star":       "def main(ctx):\n    return {\"n\": len(list(range(400000000)))}\n",
		"rng.star.yaml":  sidecar,
		"dflt.star":      "def f(s = \"ab\" * 2000000000):\n    return s\n\ndef main(ctx):\n    return {\"n\": len(f())}\n",
		"dflt.star.yaml": sidecar,
		"lam.star":       "def main(ctx):\n    g = lambda s = [0] * 400000000: s\n    return {\"n\": len(g())}\n",
		"lam.star.yaml":  sidecar,
		"ext.star":       "def main(ctx):\n    l = [1]\n    for i in range(40):\n        l.extend(l)\n    return {\"n\": len(l)}\n",
		"ext.star.yaml":  sidecar,
		"dec.star":       "def main(ctx):\n    return {\"n\": len(json.decode(\"[\" + \"[],\" * (300 << 10) + \"[]]\"))}\n",
		"dec.star.yaml":  sidecar,
		"ok.star":        "def main(ctx):\n    l = [0] * 1000\n    l += [1, 2]\n    s = \"a\" + \"b\" * 3\n    return {\"n\": len(l) + len(s) + 2 * 3}\n",
		"ok.star.yaml":   sidecar,
	})
	before := heapBytes()
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, valueLimit: 1 << 20})
	for script, want := range map[string]string{
		"rep.star": "over the limit of 1048576 per value",
		"dbl.star": "over the limit of 1048576 per value",
		"aug.star": "over the limit of 1048576 per value",
		"str.star": "over the limit of 1048576 per value",
		"rng.star": "range has 400000000 elements, over the limit",
		// a parameter's default is checked as any other expression
		"dflt.star": "over the limit of 1048576 per value",
		"lam.star":  "over the limit of 1048576 per value",
		"ext.star":  "over the limit of 1048576 per value",
		"dec.star":  "over the limit of 1048576 per value",
	} {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": script}, script, want)
	}
	if after := heapBytes(); after > before+256<<20 {
		t.Errorf("heap grew from %d to %d bytes", before, after)
	}
	d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"})
	if d["n"] != 1002+4+6 {
		t.Errorf("ok.star: %v", d)
	}
}

// TestStarlarkStepsAcrossModules: a script cannot multiply its step budget
// by loading modules: each module's steps count against the one budget.
func TestStarlarkStepsAcrossModules(t *testing.T) {
	spin := "def spin():\n    n = 0\n    for i in range(10000):\n        n += 1\n    return n\n\nx = spin()\n"
	files := map[string]string{"main.star.yaml": "inputs: {}\noutputs: {}\n"}
	var loads []string
	for _, m := range []string{"a", "b", "c", "d"} {
		files[m+".star"] = spin
		loads = append(loads, "load(\""+m+".star\", "+m+"=\"x\")")
	}
	files["main.star"] = strings.Join(loads, "\n") + "\ndef main(ctx):\n    return {}\n"
	dir := storytest.TempTree(t, files)
	// one module fits in 150,000 steps; four do not
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, MaxSteps: 150_000})
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "main.star"}, "four modules", "cannot load b.star: Starlark computation cancelled: too many steps")
	files["main.star"] = loads[0] + "\ndef main(ctx):\n    return {}\n"
	dir = storytest.TempTree(t, files)
	mustOK(t, h, starEnv(dir), map[string]any{"script": "main.star"})
}

// TestStarlarkGuardsKeepResults: the checked builtins and methods
// (starlark_guard.go) give what the plain ones give, errors included, for
// values under the limits.
func TestStarlarkGuardsKeepResults(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"ok.star": `def main(ctx):
    l = [1]
    l.extend([2, 3])
    x = 7
    x %= 4
    parts = [
        ",".join(["a", "b"]),
        "a-b-c".replace("-", "+", 1),
        "{}:{name}".format(1, name = "n"),
        "%d/%s/%r" % (x, "s", "r"),
        str(l), repr("q\n"), str("as is"),
        json.encode({"k": [1, "<"]}),
        json.indent('{"a":[1]}', indent = " "),
        str(json.decode('{"a": [1, 2]}')["a"]),
        "|".join("a b".split(" ") + "x\ny".splitlines() + "p.q".rsplit(".")),
        str(list("ab".elems())), str(tuple([1])), str(sorted([2, 1])), str(list(reversed([1, 2]))),
        str(list(enumerate(["e"]))), str(list(zip([1], [2]))), str(dict(a = 1)), str(set([1])),
        getattr("xy", "join")(["1", "2"]),
    ]
    return {"out": "\n".join(parts)}
`,
		"ok.star.yaml":  "inputs: {}\noutputs:\n  out: { type: string }\n",
		"bad.star":      "def main(ctx):\n    return {\"out\": \",\".join([1])}\n",
		"bad.star.yaml": "inputs: {}\noutputs:\n  out: { type: string }\n",
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"})
	want := strings.Join([]string{
		"a,b", "a+b-c", "1:n", `3/s/"r"`, "[1, 2, 3]", `"q\n"`, "as is",
		`{"k":[1,"<"]}`, "{\n \"a\": [\n  1\n ]\n}", "[1, 2]", "a|b|x|y|p|q",
		`["a", "b"]`, "(1,)", "[1, 2]", "[2, 1]", `[(0, "e")]`, "[(1, 2)]", `{"a": 1}`, "set([1])", "1xy2",
	}, "\n")
	if d["out"] != want {
		t.Errorf("got\n%v\nwant\n%v", d["out"], want)
	}
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "bad.star"}, "bad.star", "join: in list, want string, got int")
}

// TestStarlarkReadsCharged: what ctx.fs.read and ctx.world.get make is
// charged to the script's memory budget, so a loop keeping every read
// of a file, or of a large world value, stops at the budget (3,000
// reads of a 7 MB file took 24 GB, and the kernel killed kitsoki test
// --sandbox).
func TestStarlarkReadsCharged(t *testing.T) {
	t.Parallel()
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	dir := storytest.TempTree(t, map[string]string{
		"big.txt":         strings.Repeat("a", 1536<<10),
		"reads.star":      "def main(ctx):\n    l = []\n    for i in range(800):\n        l.append(ctx.fs.read(\"big.txt\"))\n    return {\"n\": len(l)}\n",
		"reads.star.yaml": sidecar,
		"world.star":      "def main(ctx):\n    l = []\n    for i in range(2000):\n        l.append(ctx.world.get(\"big\"))\n    return {\"n\": len(l)}\n",
		"world.star.yaml": sidecar,
	})
	// Filling the default 1 GiB took 35s under -race (8s of it the reads,
	// the rest the world list, 16 bytes an element) and over a minute, the
	// call's hang guard, on a loaded machine: the scripts fill a 16 MiB
	// budget instead (the same charging), and the default is checked on
	// the budget itself.
	var m memBudget
	for range 1024 {
		if err := m.charge(bigValue); err != nil {
			t.Fatalf("1 GiB of large values refused: %v", err)
		}
	}
	if err := m.charge(bigValue); err == nil || !strings.Contains(err.Error(), "more than 1073741824 bytes of large values") {
		t.Fatalf("past the default budget: %v", err)
	}
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, bigBytes: 16 << 20})
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "reads.star"}, "reads.star", "more than 16777216 bytes of large values")
	env := starEnv(dir)
	big := make([]any, 200_000)
	for i := range big {
		big[i] = "x"
	}
	env.World = map[string]any{"big": big}
	wantDomainErr(t, h, env, map[string]any{"script": "world.star"}, "world.star", "more than 16777216 bytes of large values")
}

// TestStarlarkSharedValueConverted: a value that holds one list twice, 16
// times over (x = [x, x]: 16 steps, 64K leaves, nearly 3 MB of JSON), is
// refused when it leaves the script, as an output or as ctx.http's body,
// before it is copied out leaf by leaf (40 steps of it ended kitsoki run in
// a fatal out-of-memory): the call allocates less over the same script
// with no steps than copying the value out does. The per-value limit is
// lowered to 1 MiB, the steps as much fewer (22 steps pass 64 MiB as 16
// pass 1 MiB); TestStarlarkValueLimitIsTheDocumented holds the product's.
func TestStarlarkSharedValueConverted(t *testing.T) {
	const limit = 1 << 20
	// copied lies between what the refusal's walk of the value allocates
	// and what copying it out does (the smaller, as an output)
	const copied = 6 << 20
	build := func(steps int) string {
		return "    x = [\"lolololololololololololololololololololo\"]\n    for i in range(" + strconv.Itoa(steps) + "):\n        x = [x, x]\n"
	}
	files := map[string]string{}
	for _, steps := range []int{0, 16} {
		n := strconv.Itoa(steps)
		files["out"+n+".star"] = "def main(ctx):\n" + build(steps) + "    return {\"n\": x}\n"
		files["out"+n+".star.yaml"] = "inputs: {}\noutputs:\n  n: { type: any }\n"
		files["body"+n+".star"] = "def main(ctx):\n" + build(steps) + "    ctx.http.post(\"https://example.invalid/\", body = {\"x\": x})\n    return {}\n"
		files["body"+n+".star.yaml"] = "inputs: {}\noutputs: {}\n"
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, valueLimit: limit})
	allocated := func(script, want string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if want == "" {
			mustOK(t, h, starEnv(dir), map[string]any{"script": script})
		} else {
			wantDomainErr(t, h, starEnv(dir), map[string]any{"script": script}, script, want)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, c := range []struct{ script, small, want string }{
		{"out", "", "convert outputs: the value would take more than 1048576 bytes"},
		{"body", "allows no network", "body: the value would take more than 1048576 bytes"},
	} {
		base := min(allocated(c.script+"0.star", c.small), allocated(c.script+"0.star", c.small))
		if grew := allocated(c.script+"16.star", c.want); grew > base+copied {
			t.Errorf("%s: the call allocated %d bytes, %d with no steps", c.script, grew, base)
		}
	}
}

// TestStarlarkAugmentedTargets: an augmented assignment whose target
// cannot be read twice without running code again (a call, a negative
// index, an expression in the brackets, parentheses) is checked as x += y
// is: each of these made a 200 MB string (or a doubled list) in one step,
// past the per-value limit, with no error. The limit is lowered to 1 MiB,
// so the doubling loops stop there rather than at 64 MiB
// (TestStarlarkValueLimitIsTheDocumented holds the product's).
func TestStarlarkAugmentedTargets(t *testing.T) {
	t.Parallel()
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	head := "def f():\n    return 0\n\ndef main(ctx):\n"
	scripts := map[string]string{
		"call":    "    a = [\"xx\"]\n    a[f()] *= 100000000\n    return {\"n\": len(a[0])}\n",
		"neg":     "    a = [\"xx\"]\n    a[-1] *= 100000000\n    return {\"n\": len(a[0])}\n",
		"paren":   "    a = [\"xx\"]\n    (a[f()]) *= 100000000\n    return {\"n\": len(a[0])}\n",
		"nested":  "    a = [[\"xx\"]]\n    a[f()][f() + 0] *= 100000000\n    return {\"n\": len(a[0][0])}\n",
		"dbl":     "    a = [\"xxxxxxxx\"]\n    for i in range(30):\n        a[f()] += a[0]\n    return {\"n\": len(a[0])}\n",
		"list":    "    a = [[0]]\n    for i in range(30):\n        a[i - i] += a[0]\n    return {\"n\": len(a[0])}\n",
		"dot":     "    s = [struct(x = \"xx\")]\n    s[f()].x *= 100000000\n    return {\"n\": 0}\n",
		"dotcall": "    g = lambda: struct(x = \"xx\")\n    g().x *= 100000000\n    return {\"n\": 0}\n",
		"mod":     "    b = \"y\" * 600000\n    a = [\"%s%s\"]\n    a[f()] %= (b, b)\n    return {\"n\": len(a[0])}\n",
		"range":   "    a = [[]]\n    a[f()] += range(16000000)\n    return {\"n\": len(a[0])}\n",
	}
	files := map[string]string{}
	for name, body := range scripts {
		files[name+".star"] = head + body
		files[name+".star.yaml"] = sidecar
	}
	// at the top level, the names set apart are globals
	scripts["top"] = ""
	files["top.star"] = "a = [\"xx\"]\nfor i in range(1):\n    a[len(a) - 1] *= 100000000\n\ndef main(ctx):\n    return {\"n\": 0}\n"
	files["top.star.yaml"] = sidecar
	// a top-level name that x += y binds before any other statement does
	// (it compiled as written and was "undefined: S" rewritten)
	early := "for i in range(%d):\n    if i > 0:\n        S += S\n    else:\n        S = \"xxxxxxxx\"\n\ndef main(ctx):\n    return {\"n\": len(S)}\n"
	scripts["early"] = ""
	files["early.star"] = fmt.Sprintf(early, 40)
	files["early.star.yaml"] = sidecar
	files["early3.star"] = fmt.Sprintf(early, 3)
	files["early3.star.yaml"] = sidecar
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, valueLimit: 1 << 20})
	for name := range scripts {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, "over the limit of 1048576 per value")
	}
	// the target's parts are still evaluated once, and += on a list
	// still extends it in place
	ok := storytest.TempTree(t, map[string]string{
		"ok.star":      "def main(ctx):\n    n = [0]\n    def f():\n        n[0] += 1\n        return 0\n    a = [1]\n    a[f()] += 2\n    l = [[1]]\n    m = l[0]\n    l[f()] += [2]\n    return {\"n\": n[0] * 1000 + a[0] * 100 + len(m) * 10 + len(l[0])}\n",
		"ok.star.yaml": sidecar,
	})
	if d := mustOK(t, h, starEnv(ok), map[string]any{"script": "ok.star"}); d["n"] != 2322 {
		t.Errorf("ok.star: %v, want n 2322", d)
	}
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "early3.star"}); d["n"] != 32 {
		t.Errorf("early3.star: %v, want n 32", d)
	}
}

// TestStarlarkValueLimitIsTheDocumented: one value may take 64 MiB, as
// docs/compat/hardening.md states, unless a test lowers it (valueLimit).
func TestStarlarkValueLimitIsTheDocumented(t *testing.T) {
	if maxValueBytes != 64<<20 {
		t.Fatalf("maxValueBytes is %d; docs/compat/hardening.md says 64 MiB", maxValueBytes)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "A value over 64 MiB, or more than 1 GiB of values of 1 MiB or more in one call, is a script error") {
		t.Fatal("docs/compat/hardening.md no longer states the 64 MiB per value")
	}
	if h := NewStarlarkRun(StarlarkOptions{NoNetwork: true}).(*starlarkRun); h.o.valueLimit != 0 {
		t.Fatalf("a run's valueLimit is %d by default, want 0 (maxValueBytes)", h.o.valueLimit)
	}
	if err := (&memBudget{}).charge(maxValueBytes); err != nil {
		t.Fatalf("a value of exactly maxValueBytes is refused: %v", err)
	}
	if err := (&memBudget{}).charge(maxValueBytes + 1); err == nil || !strings.Contains(err.Error(), "over the limit of 67108864 per value") {
		t.Fatalf("a value of maxValueBytes+1: %v", err)
	}
}

// TestStarlarkReservedNames: a script that binds a name of the rewrite's
// own builtins is refused as it is compiled; its global stood in for the
// checked builtin, so `s *= 100000000` made 200 MB with no error.
func TestStarlarkReservedNames(t *testing.T) {
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	main := "\ndef main(ctx):\n    s = \"xx\"\n    s *= 100000000\n    return {\"n\": len(s)}\n"
	scripts := map[string]string{
		"global": "__kitsoki_grow_mul = lambda x, y, n: y\n" + main,
		"def":    "def __kitsoki_mul(x, y):\n    return x\n" + main,
		"method": "def f(__kitsoki_method = 1):\n    return 0\n" + main,
		"load":   "load(\"m.star\", __kitsoki_grow_mul = \"g\")\n" + main,
	}
	files := map[string]string{"m.star": "def g(x, y, n):\n    return y\n"}
	for name, src := range scripts {
		files[name+".star"] = src
		files[name+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	for name := range scripts {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, "is reserved for kitsoki's checks; rename it")
	}
}

// TestStarlarkIntegersBounded: * and << make integers of at most
// maxIntBits bits and int() parses at most maxIntDigits characters:
// squaring an integer forty times ended in a fatal out-of-memory, and
// int() of 3,000,000 digits took 25 s in one step no cancel interrupts.
func TestStarlarkIntegersBounded(t *testing.T) {
	t.Parallel()
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	scripts := map[string]string{
		"square": "def main(ctx):\n    x = 3\n    for i in range(40):\n        x = x * x\n    return {\"n\": 0}\n",
		"augsq":  "def main(ctx):\n    x = [3]\n    for i in range(40):\n        x[-1] *= x[0]\n    return {\"n\": 0}\n",
		"shift":  "def main(ctx):\n    x = 1 << 511\n    for i in range(11):\n        x = x * x\n    for i in range(3000):\n        x <<= 500\n    return {\"n\": 0}\n",
		"parse":  "def main(ctx):\n    return {\"n\": int(\"7\" * 3000000) % 10}\n",
		"kwarg":  "def main(ctx):\n    return {\"n\": int(x = \"7\" * 3000000, base = 10) % 10}\n",
	}
	want := map[string]string{
		"square": "bits, over the limit of 1048576; keep integers smaller",
		"augsq":  "bits, over the limit of 1048576; keep integers smaller",
		"shift":  "the integer would have 1049029 bits, over the limit of 1048576",
		"parse":  "int: the string has 3000000 characters, over the limit of 349525 for an integer",
		"kwarg":  "int: the string has 3000000 characters, over the limit of 349525 for an integer",
	}
	files := map[string]string{
		"ok.star":      "def main(ctx):\n    x = (1 << 511) * (1 << 511)\n    return {\"n\": (x >> 1020) + int(\"7\" * 1000) % 10 + 2 * 3 + int(\"ff\", 16)}\n",
		"ok.star.yaml": sidecar,
	}
	for name, src := range scripts {
		files[name+".star"] = src
		files[name+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	for name := range scripts {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, want[name])
	}
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"}); d["n"] != 4+7+6+255 {
		t.Errorf("ok.star: %v", d)
	}
}

// TestStarlarkDeepValuesPrinted: str, repr, print, json.encode and
// formatting of a value nested more than maxNesting deep are script
// errors: upstream's printers are quadratic in the depth, in one step
// (str of a list nested 1,000,000 deep took 4 minutes). The values are
// nested 10,100 deep, just past the limit, as 9,990 is just within it:
// without the check each call prints and no error comes, as at 1,000,000,
// and the limit is pinned between the two.
func TestStarlarkDeepValuesPrinted(t *testing.T) {
	t.Parallel()
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	deep := "def deep(n):\n    x = []\n    for i in range(n):\n        x = [x]\n    return x\n\ndef main(ctx):\n"
	files := map[string]string{
		"ok.star":      deep + "    return {\"n\": len(str(deep(9990))) + len(json.encode(deep(9990)))}\n",
		"ok.star.yaml": sidecar,
	}
	for name, call := range map[string]string{
		"str": "str(x)", "repr": "repr(x)", "print": "print(x)", "json": "json.encode(x)",
		"mod": "\"%s\" % (x,)", "format": "\"{}\".format(x)", "fail": "fail(x)",
	} {
		files[name+".star"] = deep + "    x = deep(10100)\n    " + call + "\n    return {\"n\": 0}\n"
		files[name+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	for _, name := range []string{"str", "repr", "print", "json", "mod", "format", "fail"} {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, "nested over 10000 deep")
	}
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"}); d["n"] != 4*9991 {
		t.Errorf("ok.star: %v", d)
	}
}

// TestStarlarkLongNumbersRead: json.decode of a number, and a script
// holding an integer literal, of more than maxIntDigits digits are
// refused before big.Int reads them (3,000,000 digits took 25 s in one
// step; a 4 MiB script of digits, some 30 s as it was compiled).
func TestStarlarkLongNumbersRead(t *testing.T) {
	t.Parallel()
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	digits := strings.Repeat("7", 400000)
	dir := storytest.TempTree(t, map[string]string{
		"json.star":      "def main(ctx):\n    return {\"n\": json.decode(\"[1, \" + \"7\" * 3000000 + \"]\")[1] % 10}\n",
		"json.star.yaml": sidecar,
		"lit.star":       "def main(ctx):\n    return {\"n\": " + digits + " % 10}\n",
		"lit.star.yaml":  sidecar,
		"ok.star":        "def main(ctx):\n    s = json.decode('[\"' + \"7\" * 400000 + '\", 12]')\n    return {\"n\": len(s[0]) + s[1]}\n",
		"ok.star.yaml":   sidecar,
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "json.star"}, "json", "json.decode: a number of 3000000 digits, over the limit of 349525")
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "lit.star"}, "lit", "lit.star:2:18: 400000 digits in a row, over the limit of 349525")
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"}); d["n"] != 400012 {
		t.Errorf("ok.star: %v", d)
	}
}
