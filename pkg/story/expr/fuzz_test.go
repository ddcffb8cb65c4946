package expr

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goRuntime matches Go run-time texts that must never reach an author.
var goRuntime = regexp.MustCompile(`interface conversion|interface \{\}|reflect[.:]|%!|runtime error|invalid memory address|goroutine`)

// checkPlain fails when an evaluation error shows a Go run-time text.
func checkPlain(t *testing.T, src string, err error) {
	t.Helper()
	msg := strings.ReplaceAll(err.Error(), strconv.Quote(src), "") // the author's own text may hold anything
	for _, line := range strings.Split(src, "\n") {
		if line != "" {
			msg = strings.ReplaceAll(msg, line, "")
		}
	}
	if m := goRuntime.FindString(msg); m != "" {
		t.Fatalf("%q: error shows Go run-time text %q: %v", src, m, err)
	}
}

var fuzzEnv = Env{
	"world": map[string]any{"n": 2, "s": "x", "l": []any{1, map[string]any{"a": "b"}}, "m": map[string]any{"k": nil}},
	"slots": map[string]any{"t": "hello"},
	"item":  map[string]any{"name": "i"},
}

// FuzzCompileGuard: compiling and evaluating any guard never panics, and
// every failure is an *Error.
func FuzzCompileGuard(f *testing.F) {
	for _, s := range []string{
		"world.n > 1", "len(world.l) == 2", "sum(world.l) > 0", "os.Getenv('X')", "let x = 1; x",
		"{a: 1}", "filter(world.l, {# > 1})", "$host_error.code == 'T'", "world.x|default:'y'",
		"world?.m?.k ?? true", "world.s matches '('", "[1,2][5] == 1", "world.l[0:1] == nil",
		"int('x') == 1", "world.n / 0 > 1", "1..3 == nil", "((((", "'\\u'", "now() > now()",
		"available('x')", "world.m.k.j", "upper(world.l)", "keys(world.s)", "string(world) != ''",
		"upper(world.m.k) == ''", "int(world.m.k) == 1", "!world.m.k", "world.n % 0 == 1", "join(world.m.k, ',') == ''",
		"keys(world.m.k) == nil", "lower(world.n) == ''", "hasPrefix(world.m.k, 'a')", "split(world.n, ',') == nil",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, compileFn := range []func(string) (*Program, error){CompileGuard, CompileExpr} {
			p, err := compileFn(src)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("compile %q: error %T is not *Error", src, err)
				}
				continue
			}
			if _, err := p.Eval(fuzzEnv); err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("eval %q: error %T is not *Error", src, err)
				}
				checkPlain(t, src, err)
			}
			_, _ = p.EvalBool(fuzzEnv)
		}
	})
}

// FuzzTemplate: compiling and rendering any {{ }} template never panics,
// positions stay inside the source, and literals render to themselves.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"plain", "{{ world.n }}", "a {{ world.s }} b", "{{ if world.n > 1 }}x{{ else }}y{{ end }}",
		"{{ range world.l }}{{ . }}{{ .a }}{{ end }}", "{{ world.x|default:'y' }}", "{{", "}}{{",
		"{{ end }}", "{{ if }}", "{{ else if x }}", "{{ range }}", "{{ '}}' }}", "{{ \"", "{{ `x",
		"{{ range world.m }}{{ if . }}{{ end }}{{ end }}", "é{{ world.s }}\n{{ ", "{{ if a { 1 } else { 2 } }}",
		"{{ . }}", "{{ range world.l }}{{ range world.l }}{{ . }}{{ end }}{{ end }}",
		"{{ upper(world.m.k) }}", "x{{ int(world.m.k) }}", "{{ !world.m.k }}", "{{ world.n % 0 }}", "{{ trim(world.n) }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tpl, err := CompileTemplate(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("compile %q: error %T is not *Error", src, err)
			}
			if e.Line < 0 || e.Col < 0 {
				t.Fatalf("compile %q: negative position %d:%d", src, e.Line, e.Col)
			}
			return
		}
		out, err := tpl.Render(fuzzEnv)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("render %q: error %T is not *Error", src, err)
			}
			checkPlain(t, src, err)
			return
		}
		if !IsTemplate(src) && out != src {
			t.Fatalf("literal %q rendered as %#v", src, out)
		}
		_ = CompileValue(map[string]any{"k": []any{src}})
	})
}

// FuzzPongo: compiling and rendering any pongo2 template never panics
// (pongo2 panics are recovered into *Error).
func FuzzPongo(f *testing.F) {
	for _, s := range []string{
		"Hello {{ world.s }}", "{{ world.x ?? 'none' }}", "{% if world.n > 1 %}a{% else %}b{% endif %}",
		"{% for x in world.l %}{{ forloop.Counter }}{{ x }}{% endfor %}", "{{ world.s|wordwrap:2 }}",
		"{{ world.s|truncatechars:1 }}", "{{ world.l|reverse }}", "{{ world.s|col:5 }}{{ world.n|rcol:4 }}",
		"{{ world.m|reference }}", "{% if world.x %} unterminated", "{{ 'a'|nosuch }}", "{% include 'x' %}",
		"{% extends 'x' %}", "{{", "{%", "{# c #}", "{% comment %}x{% endcomment %}", "{{ world.n|add:'x' }}",
		"{{ 'one two three'|wordwrap:1 }}", "{% comment %}x{% endcomment y %}", "{{ slots.t|slice:'5:1' }}", "{% widthratio 1 0 1 %}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := CompilePongo(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("compile %q: error %T is not *Error", src, err)
			}
			return
		}
		if _, err := p.Render(fuzzEnv); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("render %q: error %T is not *Error", src, err)
			}
			checkPlain(t, src, err)
		}
	})
}

// FuzzRenderBudget: any pongo2 source either fails to compile or renders
// to an end within the budget (no hang, no panic, output under the cap),
// and a source over a limit is refused before pongo2 parses it.
func FuzzRenderBudget(f *testing.F) {
	for _, s := range []string{
		"{% for a in l %}{% for b in l %}{{ a }}{% endfor %}{% endfor %}",
		"{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
		`{% set s = "ab" %}{% for i in l %}{% set s = s|add:s %}{% endfor %}{{ s }}`,
		`{{ "x"|ljust:2000000000 }}`, `{{ "x"|stringformat:"%0999999999d" }}`,
		`{{ l|join:", "|center:40 }}`, "{% for a in l %}{% empty %}none{% endfor %}",
		"{{ ((((((((1)))))))) }}", `{{ 1.5|floatformat:99999999 }}`,
	} {
		f.Add(s)
	}
	l := make([]any, 40)
	for i := range l {
		l[i] = i
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := CompilePongo(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %T", src, err)
			}
			return
		}
		out, err := p.Render(Env{"l": l})
		if err == nil && len(out) > MaxRenderBytes {
			t.Fatalf("%q: %d bytes of output", src, len(out))
		}
	})
}
