package lint

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.starlark.net/syntax"

	"kitsoki/pkg/story"
)

// portableSummary is f's findings as "line:col construct", one a line.
func portableSummary(t testing.TB, src string) (string, bool) {
	t.Helper()
	f, err := upstreamDialect.Parse("s.star", src, 0)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, fd := range portableFindings(f) {
		fmt.Fprintf(&b, "%d:%d %s\n", fd.pos.Line, fd.pos.Col, fd.c.what)
	}
	return b.String(), true
}

// TestPortableFindings: each construct the existing engine refuses, at
// the place its error names (probed, testdata/broken/starlark-portable/
// upstream.txt), once; what it runs is not reported.
func TestPortableFindings(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"while in a function", "def main(ctx):\n    while True:\n        break\n", "2:5 a while loop\n"},
		{"while at top level: one finding", "while False:\n    pass\n", "1:1 a while loop\n"},
		{"top-level for and if", "for i in []:\n    pass\nif True:\n    pass\n", "1:1 a for loop at top level\n3:1 an if statement at top level\n"},
		{"global reassigned, augmented, def redefined", "x = 1\nx += 1\ndef f(): pass\ndef f(): pass\n", "2:1 a reassigned global\n4:5 a reassigned global\n"},
		{"set and struct, used or not", "def f():\n    return set([]), struct(a = 1)\n", "2:12 set\n2:21 struct\n"},
		{"load", "load(\"m.star\", \"g\")\n", "1:1 load()\n"},
		{"recursion, once per def", "def f(n):\n    return f(n - 1) + f(n - 2)\n", "2:12 recursion\n"},
		{"a nested def calling itself", "def main(ctx):\n    def g(n):\n        return g(n)\n    return {}\n", "3:16 recursion\n"},
		{"get with a default, through an alias and by keyword", "def main(ctx):\n    w = ctx.world\n    return [ctx.world.get(\"a\", 1), w.get(\"b\", 2), ctx.world.get(key = \"c\", default = 3)]\n",
			"3:23 ctx.world.get with a default\n3:38 ctx.world.get with a default\n3:61 ctx.world.get with a default\n"},
		{"portable", "def helper(f):\n    return f(1)\n\ndef main(ctx):\n    d = {}\n    x = 0\n    x = d.get(\"b\", 2)\n    for i in range(3):\n        x += i\n    f = lambda n: n\n    return {\"a\": json.encode(x), \"b\": math.floor(1.5), \"c\": ctx.world.get(\"n\"), \"d\": helper(str), \"e\": f(x)}\n", ""},
		{"a parameter named as its def", "def f(f):\n    return f(1)\n", ""},
		{"a name both engines leave undefined", "def main(ctx):\n    return structure\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := portableSummary(t, tc.src)
			if !ok || got != tc.want {
				t.Errorf("findings:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestStarlarkPortableOncePerFile: a script two calls run and a module
// two scripts load are each reported once; a phase template's script is
// checked on the expansion, once, with no note about the graph.
func TestStarlarkPortableOncePerFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
hosts: [host.starlark.run]
intents: {finish: {}}
root: build_executing
phase_templates:
  leg:
    states:
      "{id}_executing":
        on_enter:
          - invoke: host.starlark.run
            with: {script: t.star}
        on:
          finish: [{target: ended}]
phases:
  template: leg
  graph: {build: {}, test: {}}
states:
  ended:
    on_enter:
      - invoke: host.starlark.run
        with: {script: a.star}
      - invoke: host.starlark.run
        with: {script: a.star}
      - invoke: host.starlark.run
        with: {script: b.star}
`)
	for _, s := range []string{"a", "b", "t"} {
		write(t, dir, s+".star.yaml", "inputs: {}\noutputs: {}\n")
	}
	write(t, dir, "a.star", "load(\"lib/m.star\", \"g\")\n\ndef main(ctx):\n    return {}\n")
	write(t, dir, "b.star", "load(\"//lib/m.star\", \"g\")\n\ndef main(ctx):\n    return {}\n")
	write(t, dir, "t.star", "def main(ctx):\n    return {\"s\": struct(a = 1)}\n")
	write(t, dir, "lib/m.star", "def g():\n    while False:\n        pass\n")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	var got []string
	for _, d := range ds {
		if d.Rule == ruleStarlarkPortable.ID {
			got = append(got, fmt.Sprintf("%s:%d:%d", filepath.ToSlash(strings.TrimPrefix(d.File, dir+string(filepath.Separator))), d.Line, d.Col))
			if strings.Contains(d.Message, "phases.graph") || strings.Contains(d.Message, "phase_templates") {
				t.Errorf("a script's finding names the graph: %s", d.Message)
			}
		}
	}
	want := []string{"a.star:1:1", "b.star:1:1", "lib/m.star:2:5", "t.star:2:18"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("findings at %q, want %q", got, want)
	}
}

// FuzzPortableFindings: on what the parser accepts, findings come in
// source order, each at the construct it names (the source there starts
// with while, for, if, set, struct, load, get, the reassigned name or the
// recursive function's), and none is missed that the syntax tree shows:
// every while loop and load(), every for loop and if statement at top
// level.
func FuzzPortableFindings(f *testing.F) {
	f.Add("def main(ctx):\n    while True:\n        break\n")
	f.Add("x = 1\nx += 1\nfor i in []:\n    pass\nif x:\n    pass\n")
	f.Add("load(\"m.star\", \"g\", h = \"g\")\ndef f(n):\n    return f(n) + set([]) + struct()\n")
	f.Add("def main(ctx):\n    w = ctx.world\n    return w.get(\"a\", 1), ctx.world.get(key = \"c\", default = 3)\n")
	f.Add("def f():\n    def g():\n        return g()\n    return lambda f: f(1)\n")
	f.Add("if 1:\n\tpass\nelif 2:\n  x = 1\nx = 'é'; y = set(); x = 2\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := upstreamDialect.Parse("f.star", src, 0)
		if err != nil {
			return
		}
		last := syntax.Position{}
		at := map[syntax.Position][]*starConstruct{}
		for _, fd := range portableFindings(file) {
			if fd.pos.Line < last.Line || fd.pos.Line == last.Line && fd.pos.Col < last.Col {
				t.Fatalf("findings out of order at %d:%d", fd.pos.Line, fd.pos.Col)
			}
			last = fd.pos
			at[fd.pos] = append(at[fd.pos], fd.c)
			text, ok := sourceAt(src, fd.pos)
			if want := portableWord(fd); !ok || !strings.HasPrefix(text, want) && !(fd.c == &starTopIf && strings.HasPrefix(text, "elif")) {
				t.Fatalf("%q: %s at %d:%d reads %.12q, want %q", src, fd.c.what, fd.pos.Line, fd.pos.Col, text, want)
			}
		}
		want := func(p syntax.Position, c *starConstruct) {
			if !slices.Contains(at[p], c) {
				t.Fatalf("%q: no finding of %s at %d:%d", src, c.what, p.Line, p.Col)
			}
		}
		for _, st := range file.Stmts {
			switch st := st.(type) {
			case *syntax.ForStmt:
				want(st.For, &starTopFor)
			case *syntax.IfStmt:
				want(st.If, &starTopIf)
			case *syntax.LoadStmt:
				want(st.Load, &starLoad)
			}
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.WhileStmt); ok {
				want(w.While, &starWhile)
			}
			return true
		})
	})
}

// portableWord is the text the source holds at fd's place.
func portableWord(fd portableFinding) string {
	switch fd.c {
	case &starWhile:
		return "while"
	case &starTopFor:
		return "for"
	case &starTopIf:
		return "if"
	case &starSet:
		return "set"
	case &starStruct:
		return "struct"
	case &starLoad:
		return "load"
	case &starGetDflt:
		return "get"
	case &starRecurse:
		return strings.TrimSuffix(strings.TrimPrefix(fd.upstream, "function "), " called recursively")
	}
	// cannot reassign global NAME declared at ..., cannot reassign top-level NAME
	name := strings.TrimPrefix(strings.TrimPrefix(fd.upstream, "cannot reassign global "), "cannot reassign top-level ")
	name, _, _ = strings.Cut(name, " ")
	return name
}

// sourceAt is src from p on: Starlark counts lines by \n and columns in
// runes (an invalid byte is one).
func sourceAt(src string, p syntax.Position) (string, bool) {
	for l := int32(1); l < p.Line; l++ {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return "", false
		}
		src = src[i+1:]
	}
	for c := int32(1); c < p.Col; c++ {
		if src == "" || src[0] == '\n' {
			return "", false
		}
		_, n := utf8.DecodeRuneInString(src)
		src = src[n:]
	}
	return src, true
}

// TestStarlarkPortableManyScripts: every script of a story is checked,
// however many there are (the bound is on load() depth, not files).
func TestStarlarkPortableManyScripts(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("app: {id: p}\nhosts: [host.starlark.run]\nroot: s\nstates:\n  s:\n    on_enter:\n")
	const n = maxStarlarkModules + 6
	for i := range n {
		s := fmt.Sprintf("s%d.star", i)
		fmt.Fprintf(&b, "      - {invoke: host.starlark.run, with: {script: %s}}\n", s)
		write(t, dir, s, "def main(ctx):\n    return {\"s\": struct()}\n")
		write(t, dir, s+".yaml", "inputs: {}\noutputs: {}\n")
	}
	write(t, dir, "app.yaml", b.String())
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	got := 0
	for _, d := range ds {
		if d.Rule == ruleStarlarkPortable.ID {
			got++
		}
	}
	if got != n {
		t.Errorf("%d starlark-portable findings, want %d", got, n)
	}
}
