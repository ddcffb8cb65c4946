package expr

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/storytest"
)

func pongoRender(t *testing.T, l *PongoLoader, src string, ctx Env) string {
	t.Helper()
	p, err := l.Compile(src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	out, err := p.Render(ctx)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	return out
}

func TestPongoBasics(t *testing.T) {
	ctx := Env{
		"world": map[string]any{"name": "Ada", "html": "<b>a & b</b>", "n": 3, "list": []any{"x", "y", "z"},
			"conf": 0.8765, "neg": -2, "lines": "keep\nbreaks here", "ten": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "gaps": "a  b\n\nc d   e\n", "obj": map[string]any{"k": "v", "l": []any{1}}},
		"state": map[string]any{"path": "a.b", "description": "Desc"},
		"run":   map[string]any{"id": "r1", "turn": 4},
	}
	l := NewPongoLoader()
	cases := []struct{ src, want string }{
		{"Hello {{ world.name }}", "Hello Ada"},
		{"{{ world.html }}", "<b>a & b</b>"}, // autoescape off
		{"{% autoescape on %}{{ world.html }}{% endautoescape %}", "&lt;b&gt;a &amp; b&lt;/b&gt;"},
		{"{% filter upper %}{% autoescape on %}{{ world.html }}{% endautoescape %}{% endfilter %}", "&LT;B&GT;A &AMP; B&LT;/B&GT;"},
		{"[{{ nosuch }}][{{ world.missing }}][{{ world.missing.deeper }}]", "[][][]"},
		{"{{ world.missing ?? \"(none)\" }}", "(none)"},
		{"{{ world.name ?? \"(none)\" }}", "Ada"},
		{"{{ world.a ?? world.b ?? 'z' }}", "z"},
		{"{{ world.missing|default:\"(pending)\" }}", "(pending)"},
		{"{% if world.missing ?? world.n %}yes{% endif %}", "yes"},
		{"{{ 'a ?? b' }}", "a ?? b"}, // no rewrite inside string literals
		{"text ?? outside tags", "text ?? outside tags"},
		{"{% for x in world.list %}{{ forloop.Counter }}{{ x }} {% endfor %}", "1x 2y 3z "},
		{"{% if world.n > 2 %}big{% else %}small{% endif %}", "big"},
		{"{{ world.conf|floatformat:2 }}", "0.88"},
		{"{{ state.description }} @ {{ state.path }} run {{ run.id }}/{{ run.turn }}", "Desc @ a.b run r1/4"},
		{"{{ world.name|reverse }}", "adA"},
		{"{% for x in world.list|reverse %}{{ x }}{% endfor %}", "zyx"},
		{"[{{ world.name|col:6 }}]", "[Ada   ]"},
		{"[{{ world.name|rcol:6 }}]", "[   Ada]"},
		{"[{{ world.name|col:2 }}]", "[Ad]"},
		{"[{{ world.conf|col:6 }}][{{ world.conf|rcol:6 }}][{{ world.name|rcol:2 }}][{{ world.name|col:0 }}]", "[0.8765][0.8765][Ad][]"},
		{"[{{ world.list|col:4 }}][{{ true|col:3 }}][{{ world.missing|col:2 }}][{{ 'Zoë wörld'|rcol:4 }}]", "[<[]i][Tru][  ][Zoë ]"},
		{"[{{ world.n|rcol:3 }}]", "[  3]"},
		// reference, truncatechars, wordwrap and cycle as the existing engine
		// renders them (probe pkg/engine/testdata/conformance/view-filters)
		{"{{ world.obj|reference }}", "<reference src=\"\" lines=\"1-1\" sha256=\"b2e73993\">\n1 | <map[string]interface {} Value>\n</reference>"},
		{"[{{ world.missing|reference }}]", "[]"},
		{"{{ world.name|reference:'a.go' }}", "<reference src=\"a.go\" lines=\"1-1\" sha256=\"99a563ab\">\n1 | Ada\n</reference>"},
		{"{{ ''|reference }}", "<reference src=\"\" lines=\"0-0\" sha256=\"e3b0c442\">\n</reference>"},
		{"{{ world.ten|reference }}", "<reference src=\"\" lines=\"1-10\" sha256=\"bf794518\">\n 1 | 1\n 2 | 2\n 3 | 3\n 4 | 4\n 5 | 5\n 6 | 6\n 7 | 7\n 8 | 8\n 9 | 9\n10 | 10\n</reference>"},
		{"{{ 'hello world foo'|truncatechars:8 }}", "hello..."},
		{"{{ 'True'|truncatechars:3 }}", "..."},
		{"{{ 'Zoë wörld'|truncatechars:4 }}", "Z..."},
		{"{{ 'Hé'|truncatechars:1 }}", "H"},
		{"{{ 'hello'|truncatechars:5 }}", "hello"},
		{"[{{ 'hello'|truncatechars:0 }}]", "[]"},
		{"[{{ 'hello'|truncatechars:world.neg }}]", "[]"},
		{"{{ 'hello big world'|wordwrap:1 }}", "hello big world"},
		{"{{ 'ab-cd'|wordwrap:3 }}", "ab-\ncd"},
		{"{{ '日本 語 x'|wordwrap:3 }}", "日本\n語\nx"},
		{"{% for x in world.list %}{% cycle 'o' 'e' 'z' as c silent %}{{ c }}{% cycle c %}{% endfor %}", "oze"},
		{"{{ 'a b c d e'|wordwrap:world.neg }}", "a b c d e"},
		{"{{ 'one two three four five'|wordwrap:9 }}", "one two\nthree\nfour five"},
		{"{{ 'a b c d e'|wordwrap:3 }}", "a b\nc d\ne"},
		{"{{ 'averyverylongword x'|wordwrap:4 }}", "averyverylongword\nx"},
		{"{{ world.lines|wordwrap:7 }}", "keep\nbreaks\nhere"},
		{"{{ world.gaps|wordwrap:3 }}", "a\nb\n\nc d\ne\n"},
		{"{{ 'x y'|wordwrap:0 }}", "x y"},
	}
	for _, c := range cases {
		if got := pongoRender(t, l, c.src, ctx); got != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// A cycle starts at its first value in every render of one compiled
// template, as upstream's (pongo2 keeps the position in the template).
func TestPongoCyclePerRender(t *testing.T) {
	p, err := NewPongoLoader().Compile(`{% for x in world.l %}{% cycle "o" "e" "z" %}{% endfor %}`)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{"world": map[string]any{"l": []any{1, 2, 3, 4}}}
	for i := range 3 {
		if out, err := p.Render(env); err != nil || out != "oezo" {
			t.Errorf("render %d = %q, %v; want oezo", i+1, out, err)
		}
	}
	empty, err := NewPongoLoader().Compile(`{% cycle %}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Render(env); err == nil {
		t.Error("an empty cycle rendered; want an error (upstream's divides by zero)")
	}
}

func TestRewritePongo(t *testing.T) {
	cases := map[string]string{
		`{{ a ?? "x" }}`:             `{{ a|default:"x" }}`,
		`{% if a ?? b %}{% endif %}`: `{% if a|default:b %}{% endif %}`,
		`{{ a ?? b ?? 'c' }}`:        `{{ a|default:b|default:'c' }}`,
		`{{ "x ?? y" }} a ?? b`:      `{{ "x ?? y" }} a ?? b`,
		`{{ a??b }}`:                 `{{ a|default:b }}`,
		"{{ a\t\t??  b }}":           `{{ a|default:b }}`,
		"{{ a \r?? \rb }}":           "{{ a \r|default:\rb }}",
		`{{ a???b }}`:                `{{ a|default:?b }}`,
		`{{ a ?? "x??y" }}x??y`:      `{{ a|default:"x??y" }}x??y`,
		`{{??b}}`:                    `{{|default:b}}`,
		`{{ a ?? "unterminated`:      `{{ a ?? "unterminated`,
		`no tags`:                    `no tags`,
		`{{ a }} ?? {{ b ?? 'q' }}`:  `{{ a }} ?? {{ b|default:'q' }}`,
		`{% set x = a ?? 'it''s' %}`: `{% set x = a|default:'it''s' %}`,
		`{{ 'esc\' ?? ' ?? b }}`:     `{{ 'esc\' ?? '|default:b }}`,
	}
	for in, want := range cases {
		if got := rewritePongo(in); got != want {
			t.Errorf("rewritePongo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPongoErrors(t *testing.T) {
	_, err := CompilePongo("line one\n{% if world.x %} unterminated")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindPongo {
		t.Fatalf("compile error = %#v", err)
	}
	if !strings.HasPrefix(e.Msg, "pongo2 <string>:") || e.Line != 2 {
		t.Errorf("compile error = %q at %d:%d", e.Msg, e.Line, e.Col)
	}
	_, err = CompilePongo("{{ world.x|nosuchfilter }}")
	if err == nil || !strings.Contains(err.Error(), "nosuchfilter") {
		t.Errorf("unknown filter: %v", err)
	}
	_, err = CompilePongo("{% include 'missing.md' %}")
	if err == nil {
		t.Error("include without a loader dir: no error")
	}
	// Run-time error: calling a non-function.
	p, err := CompilePongo("{{ world.x() }}")
	if err == nil {
		_, err = p.Render(Env{"world": map[string]any{"x": 1}})
	}
	if err == nil {
		t.Error("calling a non-function: no error")
	}
	if _, err := NewPongoLoader().CompileFile(filepath.Join(t.TempDir(), "nope.md")); err == nil || !strings.Contains(err.Error(), "nope.md") {
		t.Errorf("CompileFile(missing) = %v", err)
	}
}

func TestPongoIncludeExtendsAndOverlay(t *testing.T) {
	story := t.TempDir()
	overlay := t.TempDir()
	shared := t.TempDir()
	storytest.WriteTree(t, story, map[string]string{
		"prompts/fix.md":        "{% extends 'prompts/base.md' %}{% block spec_rules %}story rules {{ args.x ?? 'dflt' }}{% endblock %}",
		"prompts/base.md":       "BASE[{% block spec_rules %}none{% endblock %}] {% include 'prompts/part.md' %}",
		"prompts/part.md":       "part {{ args.x ?? 'p' }}",
		"prompts/rel.md":        "{% include 'sib.md' %}",
		"prompts/sib.md":        "sibling",
		"prompts/shared_use.md": "{% include '@shared/common.md' %} {% include '@story/prompts/part.md' %}",
		"views/base.pongo":      "[{% block body %}{% endblock %}]",
	})
	storytest.WriteTree(t, overlay, map[string]string{
		"prompts/part.md": "OVERLAY part",
	})
	storytest.WriteTree(t, shared, map[string]string{
		"common.md": "common {{ world.n }}",
	})

	plain := NewPongoLoader(story)
	p, err := plain.CompileFile(filepath.Join(story, "prompts/fix.md"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(Env{"args": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if out != "BASE[story rules dflt] part p" {
		t.Errorf("extends/include = %q", out)
	}

	// The overlay comes first in the search path.
	over := NewPongoLoader(overlay, story)
	p, err = over.CompileFile(filepath.Join(story, "prompts/fix.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(nil); out != "BASE[story rules dflt] OVERLAY part" {
		t.Errorf("overlay = %q", out)
	}
	// Loaders do not leak into each other: the plain loader still sees the story file.
	p, _ = plain.Compile("{% include 'prompts/part.md' %}")
	if out, _ := p.Render(nil); out != "part p" {
		t.Errorf("plain loader after overlay loader = %q", out)
	}

	// Relative to the including file.
	p, err = plain.CompileFile(filepath.Join(story, "prompts/rel.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(nil); out != "sibling" {
		t.Errorf("relative include = %q", out)
	}

	// Namespaces. A loader with none (upstream's view and say templates
	// know none) reads an "@" name as a path (conformance
	// view-at-name-plain).
	if _, err := plain.Compile("{% include '@story/prompts/part.md' %}"); err == nil || !strings.Contains(err.Error(), `unable to resolve template near "@story/prompts/part.md"`) {
		t.Errorf("unregistered @story: %v", err)
	}
	plain.AddNamespace("@shared", shared)
	plain.AddNamespace("@story", story)
	p, err = plain.CompileFile(filepath.Join(story, "prompts/shared_use.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(Env{"world": map[string]any{"n": 5}}); out != "common 5 part p" {
		t.Errorf("namespaces = %q", out)
	}

	// A registered "@story" namespace wins over the search path.
	other := NewPongoLoader(overlay, story)
	other.AddNamespace("@story", story)
	p, err = other.Compile("{% include '@story/prompts/part.md' %}|{% include 'prompts/part.md' %}")
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(nil); out != "part p|OVERLAY part" {
		t.Errorf("@story namespace = %q", out)
	}

	// A string template extending a view layout.
	p, err = plain.Compile("{% extends 'views/base.pongo' %}{% block body %}B {{ world.n }}{% endblock %}")
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(Env{"world": map[string]any{"n": 1}}); out != "[B 1]" {
		t.Errorf("string extends = %q", out)
	}

	// Unknown namespace: a compile error naming the template.
	if _, err := plain.Compile("{% include '@import/nope/x.md' %}"); err == nil || !strings.Contains(err.Error(), "@import/nope/x.md") {
		t.Errorf("unknown namespace: %v", err)
	}
}

func TestPongoConcurrentRender(t *testing.T) {
	p, err := CompilePongo("{% for x in world.list %}{{ x|upper }}{% endfor %} {{ world.n ?? 0 }}")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				out, err := p.Render(Env{"world": map[string]any{"list": []any{"a", "b"}}})
				if err != nil || out != "AB 0" {
					t.Errorf("Render = %q, %v", out, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// pongo2 v6 loops forever on "{% endcomment" not directly followed by
// "%}"; the loader refuses such sources instead of hanging.
func TestPongoEndcommentHang(t *testing.T) {
	bad := []string{
		"{% comment %}x{% endcomment",
		"{% comment %}x{% endcomment %",
		"{% comment %}x{% endcomment x %}",
		"a\n{% comment %}x{%- endcomment  junk -%}",
		"{% comment mm%}x{% endcomment",
	}
	for _, src := range bad {
		_, err := CompilePongo(src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "{% endcomment %} takes no arguments") {
			t.Errorf("CompilePongo(%q) = %v", src, err)
		}
	}
	_, err := CompilePongo("a\n{% comment %}x{%- endcomment  junk -%}")
	if e := err.(*Error); e.Line != 2 || e.Col != 15 {
		t.Errorf("position %d:%d, want 2:15", e.Line, e.Col)
	}
	for _, src := range []string{"{% comment %}x{% endcomment %}y", "{% comment %}{%- endcomment -%}", "{% endcomments %}x"} {
		if _, err := CompilePongo(src); err != nil && strings.Contains(err.Error(), "takes no arguments") {
			t.Errorf("CompilePongo(%q) refused: %v", src, err)
		}
	}
	// The same refusal for an included file, with the loader's reason.
	dir := storytest.TempTree(t, map[string]string{"bad.md": "{% comment %}x{% endcomment y %}", "top.md": "{% include 'bad.md' %}"})
	l := NewPongoLoader(dir)
	for _, compile := range []func() error{
		func() error { _, err := l.CompileFile(filepath.Join(dir, "top.md")); return err },
		func() error { _, err := l.Compile("{% include 'bad.md' %}"); return err },
		func() error { _, err := l.CompileFile(filepath.Join(dir, "bad.md")); return err },
	} {
		if err := compile(); err == nil || !strings.Contains(err.Error(), "bad.md:1:15: {% endcomment %} takes no arguments") {
			t.Errorf("include of a hanging file = %v", err)
		}
	}
}

// Include, extends and import resolve only inside the template roots: an
// absolute name or a ".." that leaves them is refused, naming the
// template, the path and the roots, and the outside file is never read.
func TestPongoLoaderStaysInsideRoots(t *testing.T) {
	base := t.TempDir()
	story := filepath.Join(base, "story")
	secret := filepath.Join(base, "secret.txt")
	storytest.WriteTree(t, base, map[string]string{"secret.txt": "TOPSECRET"})
	storytest.WriteTree(t, story, map[string]string{
		"prompts/abs.md":     "{% include '" + secret + "' %}",
		"prompts/dotdot.md":  "{% include '../../secret.txt' %}",
		"prompts/extends.md": "{% extends '../../secret.txt' %}",
		"prompts/import.md":  "{% import '" + secret + "' m %}",
		"prompts/ok.md":      "{% include '../views/part.md' %}",
		"views/part.md":      "part",
	})
	l := NewPongoLoader(filepath.Join(story, "prompts"), story)
	for _, f := range []string{"abs.md", "dotdot.md", "extends.md", "import.md"} {
		path := filepath.Join(story, "prompts", f)
		_, err := l.CompileFile(path)
		if err == nil {
			t.Fatalf("%s compiled", f)
		}
		for _, want := range []string{"pongo2 " + path, "is refused", "roots: " + filepath.Join(story, "prompts") + ", " + story} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", f, err, want)
			}
		}
		if strings.Contains(err.Error(), "TOPSECRET") {
			t.Errorf("%s: the outside file was read: %v", f, err)
		}
		if !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("%s: %v does not wrap ErrOutsideRoots", f, err)
		}
	}
	// A ".." that stays inside a root is fine.
	p, err := l.CompileFile(filepath.Join(story, "prompts", "ok.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := p.Render(nil); out != "part" {
		t.Errorf("inside include = %q", out)
	}
	// String templates, static and at render time.
	for _, src := range []string{"{% include '" + secret + "' %}", "{% include '../secret.txt' %}", "{% include '@import/x/../../../secret.txt' %}", "{% ssi '" + secret + "' %}"} {
		if _, err := l.Compile(src); err == nil {
			t.Errorf("Compile(%q) succeeded", src)
		} else if strings.Contains(err.Error(), "TOPSECRET") {
			t.Errorf("Compile(%q) read the file: %v", src, err)
		}
	}
	p, err = l.Compile("{% include world.p %}")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{secret, "../secret.txt", "views/part.md"} {
		out, err := p.Render(Env{"world": map[string]any{"p": name}})
		if strings.Contains(out, "TOPSECRET") {
			t.Errorf("render include %q leaked the file", name)
		}
		if name == "views/part.md" {
			if err != nil || out != "part" {
				t.Errorf("render include %q = %q, %v", name, out, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), "is refused") {
			t.Errorf("render include %q = %q, %v", name, out, err)
		}
	}
}

// Several prompts.shared directories all serve @shared/, first match wins.
func TestPongoNamespaceWithSeveralDirectories(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{
		"a/only_a.md": "from a",
		"a/both.md":   "a wins",
		"b/only_b.md": "from b",
		"b/both.md":   "b loses",
	})
	l := NewPongoLoader(root)
	l.AddNamespace("@shared", filepath.Join(root, "a"))
	l.AddNamespace("@shared", filepath.Join(root, "b"))
	p, err := l.Compile(`{% include "@shared/only_a.md" %}|{% include "@shared/only_b.md" %}|{% include "@shared/both.md" %}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(Env{})
	if err != nil {
		t.Fatal(err)
	}
	if out != "from a|from b|a wins" {
		t.Fatalf("got %q", out)
	}
}

// CheckFileSource checks the bytes it is given, and pongo2's own read of
// the file (the loader's Get) takes them too: the file on disk, here
// broken, is not read again.
func TestCheckFileSourceReadsNoFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "prompts", "p.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("on disk {% if %}"), 0o644); err != nil {
		t.Fatal(err)
	}
	given := "given {% with y=x %}{{ y }}{% endwith %}"
	l := NewPongoLoader(filepath.Join(dir, "prompts"))
	if err := l.CheckFileSource(p, []byte(given)); err != nil {
		t.Fatalf("the file on disk was read instead of the given bytes: %v", err)
	}
	if err := os.WriteFile(p, []byte("on disk {{ x }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := NewPongoLoader(dir).CheckFileSource(p, []byte("{% if %}")); err == nil {
		t.Fatal("a broken source passed: the file was read instead")
	}
}

// Resolve names the file an include reads as the loader finds it, and
// refuses what Abs refuses, reading nothing.
func TestPongoLoaderResolve(t *testing.T) {
	base := t.TempDir()
	story := filepath.Join(base, "story")
	storytest.WriteTree(t, base, map[string]string{"secret.txt": "TOPSECRET"})
	storytest.WriteTree(t, story, map[string]string{
		"views/page.md":     "{% include 'part.md' %}",
		"views/part.md":     "part",
		"views/sub/near.md": "near",
		"shared/s.md":       "s",
		".git/config":       "token",
	})
	l := NewPongoLoader(filepath.Join(story, "views"))
	l.Confine(story)
	l.AddNamespace("@shared", filepath.Join(story, "shared"))
	page := filepath.Join(story, "views", "page.md")
	for _, tc := range []struct {
		base, name, want string
	}{
		{"", "part.md", filepath.Join(story, "views", "part.md")},
		{page, "part.md", filepath.Join(story, "views", "part.md")},
		{page, "sub/near.md", filepath.Join(story, "views", "sub", "near.md")},
		{filepath.Join(story, "views", "sub", "x.md"), "near.md", filepath.Join(story, "views", "sub", "near.md")},
		{page, "@shared/s.md", filepath.Join(story, "shared", "s.md")},
		{page, "../shared/s.md", filepath.Join(story, "shared", "s.md")},
		{page, "../../secret.txt", ""},
		{page, filepath.Join(base, "secret.txt"), ""},
		{page, "@nope/s.md", ""},
		{page, "../.git/config", ""},
		{page, "", ""},
	} {
		got, ok := l.Resolve(tc.base, tc.name)
		if ok != (tc.want != "") || ok && got != tc.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tc.base, tc.name, got, ok, tc.want)
		}
	}
}

// CoalesceInTag finds the ` ?? ` prepPongo rewrites, where a template file
// fails upstream (lint rule coalesce-in-file), and nothing in
// text, literals, comments or verbatim blocks.
func TestCoalesceInTag(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
	}{
		{"V {{ world.x ?? \"d\" }}\n", 1, 14},
		{"a\n{% if world.x ?? \"\" %}y{% endif %}", 2, 15},
		{"what ?? now {{ \"a ?? b\" }}", 0, 0},
		{"{# world.x ?? 1 #}{% verbatim %}{{ a ?? b }}{% endverbatim %}", 0, 0},
		{"{{ 'it''s' }}{{ x??y }}", 1, 18},
		{"{{ 'a??b' }}", 0, 0},
		{"{{ a }} {{ b ?? 1 }}", 1, 14},
		{"{{ a }} what ?? now", 0, 0},
		{"{{ a }}{% verbatim %}{{ b ?? 1 }}{% endverbatim %}", 0, 0},
	} {
		if l, c := CoalesceInTag(tc.src); l != tc.line || c != tc.col {
			t.Errorf("CoalesceInTag(%q) = %d:%d, want %d:%d", tc.src, l, c, tc.line, tc.col)
		}
	}
	if got := LiteralIncludes(`{% include "a.pongo" %}{% import 'm.pongo' x %}{% include world.f %}{%- extends "b" %}`); strings.Join(got, ",") != "a.pongo,m.pongo,b" {
		t.Errorf("LiteralIncludes = %q", got)
	}
}
