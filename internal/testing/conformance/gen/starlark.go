package main

// The starlark kind (`gen write -kind starlark`): stories whose states run
// host.starlark.run scripts (scripts/sN.star with sidecars sN.star.yaml)
// that read the context (ctx.inputs from literals and templates,
// ctx.world.get), compute Starlark values of every shape (ints past 64
// bits, floats, non-finite ones, unicode strings, lists, dicts, tuples,
// None, bools, nested), call ctx.http and ctx.fs / ctx.probe answered by
// cassettes (hits, misses, played-once exchanges), fail (fail(), runtime
// errors, the step budget, outputs that break the sidecar), and return
// results bound into the world (bind: paths) that views and expect_world
// read. Fixtures: a starlark_http_cassette (with a
// starlark_inspect_cassette, host_handlers or host_bindings beside it),
// a host_cassette answering host.starlark.run itself (sometimes with
// strict_cassette_coverage) and host_handlers stubbing it.

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
)

// writeStarlark writes n starlark stories, story i from seed+i; known
// adds the forms known to differ (docs/compat/hosts.md): YAML integer
// literals reaching a script (uint64 upstream) and the dialect kitsoki
// widens (while, load, struct, sets); cassettes rewrites the HTTP
// cassettes in the forms real ones take (-cassettes, cassettes.go).
func writeStarlark(dir string, n int, seed uint64, known, cassettes bool) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		g.withKnown = known
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs := g.starStory(fmt.Sprintf("gens-%d", seed+uint64(i)))
		if cassettes {
			newCassetteGen(seed + uint64(i)).apply(fs)
		}
		if err := writeFiles(d, fs); err != nil {
			return err
		}
	}
	return nil
}

// starVal is a Starlark expression with the JSON value it leaves the
// script as (known false when the value cannot be told in advance).
type starVal struct {
	expr  string
	typ   string // its sidecar type
	want  any
	known bool
}

// starValue draws an expression of some shape.
func (g *gen) starValue(depth int) starVal {
	k := g.rnd.IntN(22)
	if depth > 1 && k >= 16 {
		k = g.rnd.IntN(16)
	}
	switch k {
	case 0:
		return starVal{"1 << 70", "int", math.Ldexp(1, 70), true}
	case 1:
		return starVal{"(1 << 63) - 1", "int", nil, false}
	case 2:
		return starVal{"-(1 << 63)", "int", nil, false}
	case 3:
		return starVal{"12345678901234567890 * 3", "number", 3 * 12345678901234567890.0, true}
	case 4:
		n := g.rnd.IntN(2000) - 1000
		return starVal{fmt.Sprintf("%d", n), "int", n, true}
	case 5:
		return starVal{"7 // 2 + 10 % 3", "int", 4, true}
	case 6:
		return starVal{g.pick("1.0 / 4", "0.25"), "number", 0.25, true}
	case 7:
		return starVal{g.pick("2.0", "float(2)", "1e21", "-0.0", "1.5e-7"), "number", nil, false}
	case 8:
		if !g.withKnown {
			// a bound NaN/±Inf is lost on the next turn upstream (gen's
			// testdata/differences bound-nan-replays)
			return starVal{"float(3) / 2", "number", 1.5, true}
		}
		return starVal{g.pick(`float("nan")`, `float("inf")`, `-float("inf")`), "number", nil, false}
	case 9:
		s := g.pick("日本", "héllo", "a\tb", "", "🙂 ok", `quote"d`, "multi\nline")
		return starVal{fmt.Sprintf("%q", s), "string", s, true}
	case 10:
		return starVal{`"%s-%d" % ("é", 3)`, "string", "é-3", true}
	case 11:
		return starVal{`"ab".upper() + str(len("日本"))`, "string", "AB6", true}
	case 12:
		return starVal{g.pick("True", "1 < 2"), "bool", true, true}
	case 13:
		return starVal{g.pick("False", `"" != ""`), "bool", false, true}
	case 14:
		return starVal{"None", "any", nil, true}
	case 15:
		return starVal{`str(7.0) + "|" + str(1 << 70)`, "string", "7.0|1180591620717411303424", true}
	case 16, 17:
		a, b := g.starValue(depth+1), g.starValue(depth+1)
		open, close := "[", "]"
		if k == 17 {
			open, close = "(", ",)"
			if g.chance(50) {
				close = ")"
			}
		}
		if close == ")" {
			return starVal{open + a.expr + ", " + b.expr + close, "list", []any{a.want, b.want}, a.known && b.known}
		}
		if k == 17 {
			return starVal{open + a.expr + close, "list", []any{a.want}, a.known}
		}
		return starVal{open + a.expr + ", " + b.expr + close, "list", []any{a.want, b.want}, a.known && b.known}
	case 18, 19:
		a, b := g.starValue(depth+1), g.starValue(depth+1)
		ka, kb := g.pick("k", "日", "a b"), g.pick("z", "")
		return starVal{fmt.Sprintf("{%q: %s, %q: %s}", ka, a.expr, kb, b.expr), "object", m{ka: a.want, kb: b.want}, a.known && b.known}
	case 20:
		return starVal{`ctx.world.get("s")`, "any", nil, false}
	default:
		return starVal{`[x * 2 for x in range(3)] + [len(ctx.inputs)]`, "list", nil, false}
	}
}

// starReadCtx draws a statement that reads the context into a local.
func (g *gen) starReadCtx() string {
	reads := []string{
		`v = ctx.inputs["name"]`,
		`v = ctx.inputs.get("num", "none")`,
		`v = ctx.inputs.get("flag")`,
		`v = [type(ctx.inputs.get(k)) for k in sorted(ctx.inputs.keys())]`,
		`v = ctx.world.get("s")`,
		`v = ctx.world.get("f")`,
		`v = ctx.world.get("l")`,
		`v = ctx.world.get("m")`,
		`v = ctx.world.get("nope")`,
		`v = ctx.world.get("r1")`,
		`v = [type(ctx), type(ctx.world), type(ctx.http), dir(ctx)]`,
	}
	if g.withKnown {
		reads = append(reads, `v = ctx.world.get("n")`, `v = ctx.world.get("f", 1)`)
	}
	return reads[g.rnd.IntN(len(reads))]
}

// starCall draws an http or inspect call whose result lands in v.
func (g *gen) starCall() string {
	switch g.rnd.IntN(11) {
	case 0:
		return `r = ctx.http.get("https://api.test/` + g.pick("a", "a", "b", "j", "nope") + `")
    v = [r.status, bool(r), r.text()]`
	case 1:
		return `r = ctx.http.get("https://api.test/j", headers={"X-A": "1"})
    v = r.json()`
	case 2:
		return `r = ctx.http.get("https://api.test/n/` + g.pick("1", "22") + `")
    v = [r.status, r.headers, type(r.json()["i"])]`
	case 3:
		return `r = ctx.http.post("https://api.test/p", body=` + g.pick(`"raw"`, `{"k": [1, "é"]}`) + `)
    v = [r.status, str(r), type(r)]`
	case 4:
		return `r = ctx.http.get("https://api.test/e")
    if not r:
        fail("upstream said %d" % r.status)
    v = r.status`
	case 5:
		return `v = ctx.fs.read("` + g.pick("notes.txt", "notes.txt", "missing.txt") + `")`
	case 6:
		return `v = [ctx.fs.exists("notes.txt"), ctx.fs.exists("gone")]`
	case 7:
		return `v = ctx.fs.glob("` + g.pick("*.md", "docs/*.md", "none/*") + `")`
	case 8:
		return `v = ctx.probe("` + g.pick("lint", "lint", "git") + `", ["--x"])`
	case 9:
		return `v = ctx.http.get("https://api.test/a").json()`
	default:
		return `v = ctx.http.get("https://api.test/j").json()["k"]`
	}
}

// starFailure draws a statement that fails the script.
func (g *gen) starFailure() string {
	fs := []string{
		`fail("boom", 3)`,
		`fail("bad %s" % v)`,
		`v = 1 // 0`,
		`v = [][3]`,
		`v = {}["x"]`,
		`v = "a" + 1`,
		`v = ctx.inputs.name`,
		`v = ctx.nope`,
		`v = ctx.world["s"]`,
		`v = ctx.http.get("https://api.test/a", params={"q": "1"})`,
		`v = ctx.http.get("https://api.test/a").body`,
		"for i in range(1200000):\n        v = i",
	}
	if g.withKnown {
		fs = append(fs, "while True:\n        v = 1", `v = struct(a=1)`, `v = set([1])`)
	}
	return fs[g.rnd.IntN(len(fs))]
}

// starScript draws one script and its sidecar; outs are its declared
// outputs with what each holds (nil when unknown); sure says the script
// cannot fail (no call, failure, or output that may break the sidecar).
func (g *gen) starScript() (script, sidecar string, outs []string, wants map[string]starVal, sure bool) {
	sure = true
	var b strings.Builder
	b.WriteString("# generated\n")
	if g.chance(20) {
		b.WriteString("LIMIT = 3\n\ndef helper(x):\n    return [x, LIMIT]\n\n")
	}
	if g.chance(5) {
		b.WriteString("def other(ctx):\n    return {}\n")
		return b.String(), "inputs:\noutputs:\n  o1: {type: any}\n", []string{"o1"}, nil, false
	}
	b.WriteString("def main(ctx):\n    v = None\n")
	for range g.rnd.IntN(3) {
		if g.chance(50) {
			b.WriteString("    " + g.starReadCtx() + "\n")
		} else {
			b.WriteString("    " + g.starCall() + "\n")
			sure = false
		}
	}
	if g.chance(15) {
		b.WriteString("    " + g.starFailure() + "\n")
		sure = false
	}
	wants = map[string]starVal{}
	ret := map[string]string{}
	for j := range 1 + g.rnd.IntN(3) {
		name := fmt.Sprintf("o%d", j+1)
		sv := g.starValue(0)
		if g.chance(25) {
			sv = starVal{"v", "any", nil, false}
		}
		wants[name] = sv
		outs = append(outs, name)
		ret[name] = sv.expr
	}
	var sc strings.Builder
	sc.WriteString("inputs:\n")
	sc.WriteString("  name: {type: string, required: " + g.pick("true", "false") + "}\n")
	sc.WriteString("  num: {type: " + g.pick("int", "number", "any") + "}\n")
	sc.WriteString("  flag: {type: " + g.pick("bool", "any") + "}\n")
	sc.WriteString("  items: {type: " + g.pick("list", "any") + "}\n")
	sc.WriteString("  opts: {type: " + g.pick("object", "any") + "}\n")
	sc.WriteString("outputs:\n")
	// at most one output may break the sidecar: of several, upstream
	// names one in Go's map order (random; docs/compat/hosts.md)
	risky := false
	for _, o := range outs {
		typ := wants[o].typ
		if !risky && g.chance(15) {
			typ = g.pick("string", "int", "number", "bool", "object", "list") // may break
			risky = true
		} else if g.chance(50) {
			typ = "any"
		}
		fmt.Fprintf(&sc, "  %s: {type: %s}\n", o, typ)
	}
	var parts []string
	for _, o := range outs {
		parts = append(parts, fmt.Sprintf("%q: %s", o, ret[o]))
	}
	mutate := g.rnd.IntN(20)
	if risky {
		mutate = 19
		sure = false
	}
	if mutate < 4 {
		sure = false
	}
	switch mutate {
	case 0:
		parts = parts[:len(parts)-1] // a declared output missing
	case 1:
		parts = append(parts, `"extra": 1`) // an undeclared one
	case 2:
		b.WriteString("    return [" + strings.Join(parts, ", ") + "]\n")
		return b.String(), sc.String(), outs, nil, false
	case 3:
		parts = append(parts, `"o9": {1: "int key"}`)
		sc.WriteString("  o9: {type: any}\n")
	}
	b.WriteString("    return {" + strings.Join(parts, ", ") + "}\n")
	switch g.rnd.IntN(25) {
	case 0:
		return b.String(), "", outs, wants, sure // checks nothing
	case 1:
		return b.String(), "# notes only\ninputs:\n  name: {type: string}\n", outs, wants, sure // no output declared
	case 2:
		return b.String(), "inputs:\noutputs: {}\n", outs, wants, sure
	}
	return b.String(), sc.String(), outs, wants, sure
}

// starInputs draws the with.inputs of a call: literals of the declared
// kinds and templates (YAML integer literals only with -known); sure says
// none may fail its check.
func (g *gen) starInputs() (in m, sure bool) {
	in = m{}
	// at most one input may fail its check (missing, null or of the wrong
	// type): of several, upstream names one in Go's map order (random)
	risky := g.rnd.IntN(3)
	in["name"] = g.pick("bob", "日本", "{{ world.s }}", "")
	if risky == 1 {
		switch g.rnd.IntN(3) {
		case 0:
			delete(in, "name")
		case 1:
			in["name"] = "{{ slots.v }}" // null: no go intent has slot v
		}
	}
	if g.chance(70) {
		in["num"] = g.pick("{{ 2.5 }}", "{{ 1 + 2 }}", "{{ world.f }}", "{{ -4 }}")
		if risky == 2 {
			in["num"] = g.pick("{{ \"7\" }}", "{{ world.r1 }}", "{{ world.s }}")
		}
		if g.withKnown && g.chance(30) {
			in["num"] = 3
		}
	}
	if g.chance(50) {
		in["flag"] = []any{true, false, "{{ world.b }}"}[g.rnd.IntN(3)]
	}
	if g.chance(40) {
		in["items"] = []any{[]any{"a", "é"}, "{{ world.l }}", []any{}}[g.rnd.IntN(3)]
	}
	if g.chance(40) {
		in["opts"] = []any{m{"k": "v", "n": m{"x": "y"}}, "{{ world.m }}", m{}}[g.rnd.IntN(3)]
	}
	if g.chance(10) {
		in["extra"] = "passes through"
	}
	_, hasNum := in["num"]
	_, hasName := in["name"]
	sure = (risky == 0 || (risky == 2 && !hasNum)) && hasName
	if n, ok := in["num"].(int); ok && n == 3 {
		sure = false
	}
	return in, sure
}
