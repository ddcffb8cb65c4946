package expr

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func tplEnv() Env {
	return Env{
		"world": map[string]any{
			"n":     2,
			"name":  "Ada",
			"flag":  true,
			"none":  nil,
			"m":     map[string]any{"b": 2, "a": "<x&y>"},
			"list":  []any{1, "two", 3.5},
			"items": []any{map[string]any{"name": "a", "done": true}, map[string]any{"name": "b", "done": false}},
			"verdict": map[string]any{
				"intent": "accept", "reason": "fine",
			},
		},
		"slots": map[string]any{"text": "hello"},
	}
}

func render(t *testing.T, src string, env Env) any {
	t.Helper()
	tpl, err := CompileTemplate(src)
	if err != nil {
		t.Fatalf("CompileTemplate(%q): %v", src, err)
	}
	out, err := tpl.Render(env)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	return out
}

func TestTemplateLiteralAndTyped(t *testing.T) {
	env := tplEnv()
	cases := []struct {
		src  string
		want any
	}{
		{"plain text", "plain text"},
		{"world.name", "world.name"}, // the #1 footgun: a bare expression is a literal
		{"", ""},
		{"{{ world.n + 1 }}", 3},
		{"{{world.n}}", 2},
		{"  {{ world.flag }}\n", true},
		{"{{ world.m }}", map[string]any{"b": 2, "a": "<x&y>"}},
		{"{{ world.list }}", []any{1, "two", 3.5}},
		{"{{ world.none }}", nil},
		{"{{ world.missing ?? 'dflt' }}", "dflt"},
		{"{{ world.verdict.intent == 'accept' ? 'accept' : '' }}", "accept"},
		{"{{ slots.text }}", "hello"},
	}
	for _, c := range cases {
		got := render(t, c.src, env)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Render(%q) = %#v (%T), want %#v (%T)", c.src, got, got, c.want, c.want)
		}
	}
	if tpl, _ := CompileTemplate("{{ world.n }}"); !tpl.IsTyped() {
		t.Error("single {{ }} not typed")
	}
	if tpl, _ := CompileTemplate("n={{ world.n }}"); tpl.IsTyped() {
		t.Error("{{ }} with text reported typed")
	}
}

func TestTemplateInterpolation(t *testing.T) {
	env := tplEnv()
	cases := []struct{ src, want string }{
		{"n={{ world.n }}", "n=2"},
		{"{{ world.name }} and {{ slots.text }}", "Ada and hello"},
		{"[{{ world.none }}]", "[]"},
		{"[{{ world.missing }}]", "[]"},
		{"m={{ world.m }}", `m={"a":"\u003cx\u0026y\u003e","b":2}`}, // json.Marshal, as upstream
		{"l={{ world.list }}", `l=[1,"two",3.5]`},
		{"b={{ world.flag }} f={{ 1.5 }}", "b=true f=1.5"},
		{"{{ if world.flag }}yes{{ end }}", "yes"},
		{"{{ if world.none }}yes{{ else }}no{{ end }}", "no"},
		// no else-if, as upstream: `{{ else if c }}` is an else, c never read
		// (conformance tmpl-else-if-is-else)
		{"{{ if world.n > 5 }}big{{ else if world.n > 3 }}mid{{ end }}.", "mid."},
		{"{{ if world.n > 1 }}big{{ else if 1 }}mid{{ end }}", "big"},
		{"{{ if false }}a{{ else whatever }}b{{ end x }}", "b"},
		{"{{ if world.none == nil }}unset{{ end }}", "unset"},
		{"{{ if len(world.list) > 0 }}has{{ end }}", "has"},
		{"{{ range [1, 2] }}{{ item * 2 }},{{ end }}", "2,4,"}, // item is untyped, as upstream's
		{"{{ range world.items }}{{ .name }}{{ if .done }}+{{ else }}-{{ end }};{{ end }}", "a+;b-;"},
		{"{{ range world.items }}{{ item.name }},{{ end }}", "a,b,"},
		{"{{ range world.list }}<{{ item }}>{{ end }}", "<1><two><3.5>"},
		{"{{ range [1] }}{{ 'a .b' }}{{ end }}", "a item.b"}, // as upstream, a literal's dot too
		{"{{ range world.missing }}x{{ end }}empty", "empty"},
		{"{{ range split('a b', ' ') }}{{ item }},{{ end }}", "a,b,"},
		{"{{ range world.items }}{{ .name == 'a' ? 'A' : 'x.y' }}{{ end }}", "Ax.y"},
		{"{{ range world.items }}{{ range world.list }}{{ item }}{{ end }}|{{ end }}", "1two3.5|1two3.5|"},
		{"line1\n{{ world.name }}\n", "line1\nAda\n"},
	}
	for _, c := range cases {
		got := render(t, c.src, env)
		if got != c.want {
			t.Errorf("Render(%q) = %#v, want %#v", c.src, got, c.want)
		}
	}
}

func TestTemplateCompileErrors(t *testing.T) {
	cases := []struct {
		src       string
		want      string
		line, col int
	}{
		// pongo2 filter syntax is not valid here (story-format §6.2): exact upstream text.
		{"{{ world.x|default:'y' }}", `expr compile "world.x|default:'y'": unexpected token Operator(":") (1:16)`, 1, 19},
		{"say {{ world.x|default:'y' }}", `expr compile "world.x|default:'y'": unexpected token Operator(":") (1:16)`, 1, 23},
		{"{{ sum([1]) }}", `expr whitelist violation in "sum([1])": forbidden built-in function "sum"`, 1, 4},
		{"ab {{ world.x", `template "ab {{ world.x": unclosed "{{" (add a matching "}}") at 1:4`, 1, 4},
		{"{{ }}", `template "{{ }}": empty {{ }} (put an expression inside) at 1:1`, 1, 1},
		{"x{{ end }}", `template "x{{ end }}": {{ end }} has no matching {{ if }} or {{ range }} at 1:2`, 1, 2},
		{"{{ else }}", `template "{{ else }}": {{ else }} has no matching {{ if }} or {{ range }} at 1:1`, 1, 1},
		{"{{ if world.x }}a", `template "{{ if world.x }}a": {{ if }} has no {{ end }} at 1:1`, 1, 1},
		{"{{ range world.x }}a", `template "{{ range world.x }}a": {{ range }} has no {{ end }} at 1:1`, 1, 1},
		{"{{ range world.x }}a{{ else }}b{{ end }}", `template "{{ range world.x }}a{{ else }}b{{ end }}": {{ else }} inside {{ range }} (only {{ if }} takes {{ else }}) at 1:21`, 1, 21},
		{"{{ if a }}x{{ else }}y{{ else }}z{{ end }}", `template "{{ if a }}x{{ else }}y{{ else }}z{{ end }}": {{ else }} after {{ else }} (there is no else-if: an {{ if }} has one {{ else }} at most) at 1:23`, 1, 23},
		{"{{ if }}x{{ end }}", `template "{{ if }}x{{ end }}": {{ if }} needs a condition at 1:1`, 1, 1},
		{"a\nb {{ world.x ==  }}", `expr compile "world.x ==": unexpected token EOF`, 2, 0},
		// an {{ if }} condition is a guard, as upstream's (conformance tmpl-if-cond-bool)
		{"{{ if 1 }}x{{ end }}", `expr compile "1": expected bool, but got int`, 1, 0},
		{"{{ if world.n > 5 }}big{{ else if world.n > 1 }}mid{{ else }}small{{ end }}", `template "{{ if world.n > 5 }}big{{ else if world.n > 1 }}mid{{ else }}small{{ end }}": {{ else }} after {{ else }}`, 1, 52},
	}
	for _, c := range cases {
		_, err := CompileTemplate(c.src)
		if err == nil {
			t.Errorf("CompileTemplate(%q): no error", c.src)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("not *Error: %T", err)
		}
		if !strings.HasPrefix(e.Msg, c.want) {
			t.Errorf("CompileTemplate(%q):\n got %s\nwant %s", c.src, e.Msg, c.want)
		}
		if e.Line != c.line || (c.col != 0 && e.Col != c.col) {
			t.Errorf("CompileTemplate(%q): at %d:%d, want %d:%d", c.src, e.Line, e.Col, c.line, c.col)
		}
		if e.Src != c.src {
			t.Errorf("CompileTemplate(%q): Src = %q", c.src, e.Src)
		}
	}
}

func TestTemplateEvalErrors(t *testing.T) {
	tpl, err := CompileTemplate("x={{ world.a.b }}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.Render(Env{}); err == nil || !strings.Contains(err.Error(), "cannot fetch b") {
		t.Errorf("Render: %v", err)
	}
	// a condition that is neither a bool nor nil, named as upstream names it
	// (conformance tmpl-if-cond-bool); nil is false
	tpl, _ = CompileTemplate("<{{ if world.c }}y{{ else }}n{{ end }}>")
	for v, want := range map[any]string{"x": "bool(string)", 0: "bool(int)", 1.5: "bool(float64)"} {
		_, err := tpl.Render(Env{"world": map[string]any{"c": v}})
		if err == nil || !strings.HasPrefix(err.Error(), `template if-cond "world.c": expr eval "world.c": invalid operation: `+want) {
			t.Errorf("if over %#v: %v", v, err)
		}
	}
	if _, err := tpl.Render(Env{"world": map[string]any{"c": []any{}}}); err == nil {
		t.Errorf("if over a list: no error")
	}
	if out, err := tpl.Render(Env{"world": map[string]any{"c": nil}}); err != nil || out != "<n>" {
		t.Errorf("if over nil: %q %v", out, err)
	}
	tpl, _ = CompileTemplate("{{ range world.n }}x{{ end }}")
	if _, err := tpl.Render(Env{"world": map[string]any{"n": 3}}); err == nil || !strings.Contains(err.Error(), `template range "world.n": range expression yields a number, expected a list`) {
		t.Errorf("range over int: %v", err)
	}
	// a map is no list either, as upstream (conformance tmpl-range-map)
	if _, err := tpl.Render(Env{"world": map[string]any{"n": map[string]any{"a": 1}}}); err == nil || !strings.Contains(err.Error(), "yields an object, expected a list") {
		t.Errorf("range over a map: %v", err)
	}
}

// TestRewriteDot holds the forms probed on the existing engine
// (conformance tmpl-range-dot).
func TestRewriteDot(t *testing.T) {
	cases := map[string]string{
		".name":        "item.name",
		"._a":          "item._a",
		".":            ".",
		". + 1":        ". + 1",
		".[0]":         ".[0]",
		".5":           ".5",
		".é":           ".é",
		"world.x":      "world.x",
		".a.b":         "item.a.b",
		"(.a)":         "(item.a)",
		".a == '.b'":   "item.a == 'item.b'",
		"f(.a, .b)":    "f(item.a, item.b)",
		"1..3":         "1..3",
		"..x":          ".item.x",
		"x?.y":         "x?item.y",
		"x .y":         "x item.y",
		"é.x":          "éitem.x",
		"x1.y":         "x1.y",
		"[.a][0].b":    "[item.a][0]item.b",
		"0.5 + .n":     "0.5 + item.n",
		`.a + "\".x"`:  `item.a + "\"item.x"`,
		".a ? .b : .c": "item.a ? item.b : item.c",
	}
	for in, want := range cases {
		if got := rewriteDot(in); got != want {
			t.Errorf("rewriteDot(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRenderValue(t *testing.T) {
	env := tplEnv()
	in := map[string]any{
		"agent":  "judge",
		"args":   map[string]any{"draft": "{{ world.name }}", "n": "{{ world.n }}", "msg": "n is {{ world.n }}"},
		"list":   []any{"{{ world.flag }}", 7, nil, map[string]any{"deep": "{{ world.list }}"}},
		"number": 42,
	}
	out, err := RenderValue(in, env)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"agent":  "judge",
		"args":   map[string]any{"draft": "Ada", "n": 2, "msg": "n is 2"},
		"list":   []any{true, 7, nil, map[string]any{"deep": []any{1, "two", 3.5}}},
		"number": 42,
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("RenderValue = %#v\nwant %#v", out, want)
	}
	if in["args"].(map[string]any)["draft"] != "{{ world.name }}" {
		t.Error("RenderValue modified its input")
	}

	bad := map[string]any{"args": map[string]any{"ok": "{{ world.n }}", "x": []any{"fine", "{{ world.x|default:'y' }}"}}}
	err = CompileValue(bad)
	var e *Error
	if !errors.As(err, &e) || e.Path != "args.x[1]" || !strings.HasPrefix(e.Msg, `expr compile "world.x|default:'y'"`) {
		t.Errorf("CompileValue = %#v", err)
	}
	if _, err := RenderValue(bad, env); err == nil {
		t.Error("RenderValue(bad): no error")
	}
	if err := CompileValue(in); err != nil {
		t.Errorf("CompileValue(good) = %v", err)
	}

	// Render-time errors carry the path too.
	pv, err := PrepareValue(map[string]any{"a": []any{"{{ world.a.b }}"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = pv.Render(Env{})
	if !errors.As(err, &e) || e.Path != "a[0]" || e.Kind != KindEval {
		t.Errorf("Render error = %#v", err)
	}
	// Scalars and yaml-style map[any]any pass through.
	if v, err := RenderValue("lit", env); v != "lit" || err != nil {
		t.Errorf("RenderValue(lit) = %v, %v", v, err)
	}
	v, err := RenderValue(map[any]any{1: "{{ world.n }}"}, env)
	if err != nil || !reflect.DeepEqual(v, map[any]any{1: 2}) {
		t.Errorf("RenderValue(map[any]any) = %#v, %v", v, err)
	}
}

func TestStringify(t *testing.T) {
	type s struct{ A int }
	str := map[any]string{
		nil: "", "x": "x", true: "true", 3: "3", 2.5: "2.5",
	}
	for in, want := range str {
		if got := Stringify(in); got != want {
			t.Errorf("Stringify(%#v) = %q, want %q", in, got, want)
		}
	}
	if got := Stringify(s{A: 1}); got != `{"A":1}` {
		t.Errorf("Stringify(struct) = %q", got)
	}
	// as upstream: []any and maps as json.Marshal writes them (HTML
	// escaped), typed lists (split's []string, a range's []int) with fmt
	for want, in := range map[string]any{
		`[<a> b]`:                       []string{"<a>", "b"},
		`[1 2 3]`:                       []int{1, 2, 3},
		`["\u003ca\u003e\u0026",1]`:     []any{"<a>&", 1},
		`{"k":["\u003cb\u003e"],"x":1}`: map[string]any{"x": 1, "k": []any{"<b>"}},
	} {
		if got := Stringify(in); got != want {
			t.Errorf("Stringify(%#v) = %q, want %q", in, got, want)
		}
	}
	var np *s
	if got := Stringify(np); got != "" {
		t.Errorf("Stringify(nil ptr) = %q", got)
	}
}

func TestBareNames(t *testing.T) {
	for src, want := range map[string]string{
		"{{ last_job_status }}":                         "last_job_status",
		"a {{ foo }} b {{ world.x }} {{ foo }} {{ r }}": "foo,r",
		"{{ world.x }} {{ slots.y }} {{ state }}":       "",
		"{{ if bar }}x{{ end }}":                        "bar",
		"{{ len(world.l) > 0 ? zed : 1 }}":              "zed",
	} {
		tpl, err := CompileTemplate(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := strings.Join(tpl.BareNames(), ","); got != want {
			t.Errorf("%s: bare names %q, want %q", src, got, want)
		}
	}
	g, err := CompileGuard("world.ok || other == 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.BareNames(), ","); got != "other" {
		t.Errorf("guard bare names %q", got)
	}
}

// A strict environment fails on a bare name where the evaluation reaches
// it, as upstream ("cannot fetch foo"); a lenient one reads it as nil; a
// short-circuit that never reaches it does not fail.
func TestStrictBareNames(t *testing.T) {
	g, err := CompileGuard("world.ok == true || foo == nil")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := g.EvalBool(Env{"world": map[string]any{"ok": true}}); !ok || err != nil {
		t.Errorf("lenient short-circuit: %v %v", ok, err)
	}
	if ok, err := g.EvalBool(Strict(Env{"world": map[string]any{"ok": true}})); !ok || err != nil {
		t.Errorf("strict short-circuit: %v %v", ok, err)
	}
	if ok, err := g.EvalBool(Env{"world": map[string]any{}}); !ok || err != nil {
		t.Errorf("lenient: %v %v", ok, err)
	}
	_, err = g.EvalBool(Strict(Env{"world": map[string]any{}}))
	if err == nil || !strings.Contains(err.Error(), "cannot fetch foo") || !strings.Contains(err.Error(), "world.foo") {
		t.Errorf("strict: %v", err)
	}
	tpl, err := CompileTemplate("[{{ state }}]")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tpl.RenderString(Strict(Env{})); err != nil || s != "[null]" {
		t.Errorf("strict state: %q %v", s, err)
	}
}

// inbox, proposal and workspace compile as roots but a strict environment
// that lacks them fails where the evaluation reaches one, as upstream
// ("cannot fetch inbox from expr.Env"; conformance untyped-roots-unfetched);
// a lenient one reads an empty map, and one the environment holds is read.
func TestStrictUnfetchedRoots(t *testing.T) {
	for _, src := range []string{"inbox != nil", "proposal.id == ''", "'a' in workspace.list", "len(inbox) == 0"} {
		g, err := CompileGuard("world.ok || " + src)
		if err != nil {
			t.Fatal(src, err)
		}
		if ok, err := g.EvalBool(Strict(Env{"world": map[string]any{"ok": true}})); !ok || err != nil {
			t.Errorf("%s strict short-circuit: %v %v", src, ok, err)
		}
		if _, err := g.EvalBool(Strict(Env{"world": map[string]any{"ok": false}})); err == nil || !strings.Contains(err.Error(), "cannot fetch ") {
			t.Errorf("%s strict: %v", src, err)
		}
		if _, err := g.EvalBool(Env{"world": map[string]any{"ok": false}}); err != nil {
			t.Errorf("%s lenient: %v", src, err)
		}
		if len(g.BareNames()) != 0 {
			t.Errorf("%s: bare names %v", src, g.BareNames())
		}
	}
	g, err := CompileGuard("inbox.n == 1")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := g.EvalBool(Strict(Env{"inbox": map[string]any{"n": 1}})); !ok || err != nil {
		t.Errorf("held inbox: %v %v", ok, err)
	}
	tpl, err := CompileTemplate("a{{ inbox }}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.RenderString(Strict(Env{})); err == nil || !strings.Contains(err.Error(), "cannot fetch inbox") {
		t.Errorf("strict template: %v", err)
	}
}

// TestTemplateCloseInLiteral: as upstream, the first "}}" closes a {{ even
// inside a string literal, so the expression before it fails to compile
// (pkg/story/testdata/template-refused/close).
func TestTemplateCloseInLiteral(t *testing.T) {
	for _, src := range []string{`{{ '}}' }}`, `{{ "}}" }}`, "{{ `}}` }}", `a{{ "x}}y" }}b`, `{{ range ["}}"] }}a{{ end }}`, `{{ if world.t == "}}" }}a{{ end }}`} {
		if _, err := CompileTemplate(src); err == nil || !strings.Contains(err.Error(), "literal not terminated") {
			t.Errorf("CompileTemplate(%q) = %v, want a literal not terminated error", src, err)
		}
	}
	for _, src := range []string{`{{ "{{" }}`, `{{ "}" }}`} {
		if _, err := CompileTemplate(src); err != nil {
			t.Errorf("CompileTemplate(%q): %v", src, err)
		}
	}
}
