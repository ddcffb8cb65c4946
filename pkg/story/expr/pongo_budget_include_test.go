package expr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderBudgetReachesIncludes: pongo2 renders an include, a macro and
// a filter body into a buffer of its own, and an include with `only`
// renders without the parent's variables; a loop there still spends the
// render's budget, and a render it stops fails with ErrRenderBudget (not
// pongo2's panic over a foreign error). The loader's limits are small
// (a hundredth of the production steps, a 64th of the held bytes) and the
// inputs as much smaller; TestRenderBudget and TestIfchangedTag's
// production check hold the production ones.
func TestRenderBudgetReachesIncludes(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"big.md":   `{% for i in r %}{{ big }}{% endfor %}`,
		"mib.md":   strings.Repeat("m", 16<<10),
		"dbl.md":   `{% include next %}{% include next %}`,
		"cube.md":  `{% for i in r %}{% for j in r %}{% for k in r %}x{% endfor %}{% endfor %}{% endfor %}`,
		"names.md": `[{{ a }}|{{ outer }}]`,
		"dbl2.md":  `{% include "dbl.md" with next="dbl3.md" %}{% include "dbl.md" with next="dbl3.md" %}`,
		"dbl3.md":  `{% include "dbl.md" with next="dbl4.md" %}{% include "dbl.md" with next="dbl4.md" %}`,
		"dbl4.md":  `{% include "dbl.md" with next="mib.md" %}{% include "dbl.md" with next="mib.md" %}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := NewPongoLoader(dir)
	l.Limits = RenderLimits{Steps: 10_000, Held: 1 << 20}
	env := Env{"r": make([]int, 300), "big": strings.Repeat("b", 16<<10), "outer": "O"}
	for _, tc := range []struct{ src, want string }{
		{`{% include "big.md" %}`, "built more than 1048576 bytes"},
		{`{% macro m() %}{% for i in r %}{{ big }}{% endfor %}{% endmacro %}{{ m()|length }}`, "built more than 1048576 bytes"},
		{`{% filter lower %}{% for i in r %}{{ big }}{% endfor %}{% endfilter %}`, "built more than 1048576 bytes"},
		// no loop: a macro doubling its output at each call, and a chain
		// of templates each including the next twice
		{`{% macro m(n) %}{% if n %}{{ m(n-1) }}{{ m(n-1) }}{% else %}{{ big }}{% endif %}{% endmacro %}{{ m(30)|length }}`, "built more than 1048576 bytes"},
		{`{% include "dbl.md" with next="dbl2.md" %}`, "built more than 1048576 bytes"},
		{`{% include "cube.md" with r=r only %}`, "more than 10000 loop iterations"},
		{`{% include "cube.md" with r=r only -%}`, "more than 10000 loop iterations"},
		{`{% include 'cube.md' with r=r q="%}" only %}`, "more than 10000 loop iterations"},
	} {
		p, err := l.Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		out, err := p.RenderContext(context.Background(), env)
		if !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), tc.want) || out != "" {
			t.Errorf("%s: %d bytes, %v; want ErrRenderBudget saying %q", tc.src, len(out), err, tc.want)
		}
	}
	// `only` keeps its meaning: the parent's variables stay outside, and
	// the budget the rewrite hands on prints as nothing.
	for src, want := range map[string]string{
		`{% include "names.md" with a=1 only %}`:                          "[1|]",
		`{% include "names.md" with a=1 %}`:                               "[1|O]",
		`{% include "names.md" with a="only" only %}{{ "%}" }}`:           "[only|]%}",
		`{% include "names.md" with a=__kitsoki_render_budget only %}`:    "[|]",
		`{% include "names.md" with a=3 only %} {% include "names.md" %}`: "[3|] [|O]",
	} {
		p, err := l.Compile(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out, err := p.RenderContext(context.Background(), env)
		if err != nil || out != want {
			t.Errorf("%s = %q, %v; want %q", src, out, err, want)
		}
	}
}

// TestIncludesSpendTheBudget: an include whose name is computed is not
// followed before compiling, so a template including itself by a computed
// name, or a file read that way including itself by a literal one,
// recursed until Go's stack overflowed (a fatal error that no recover
// catches), and includes fanning out through each other ran unbounded and
// deaf to the context. Each include now spends a step and a level of the
// macro depth, a file read at render time has its includes followed
// first, and the rewrite that counts them leaves the template's output,
// trimming and error columns as they were.
func TestIncludesSpendTheBudget(t *testing.T) {
	dir := t.TempDir()
	fan := strings.Repeat(`{% include n %}`, 20)
	for name, src := range map[string]string{
		"self.md":  `x{% include name %}`,
		"self2.md": `y{% include "self2.md" %}`,
		"names.md": `[{{ a }}]`,
		"fan1.md":  strings.ReplaceAll(fan, " n ", ` m `),
		"fan2.md":  strings.ReplaceAll(fan, " n ", ` "leaf.md" `),
		"leaf.md":  `.`,
		"after.md": `x {% include "c.md" %} {{ 1 + }}`,
		"c.md":     `c`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := NewPongoLoader(dir)
	env := Env{"name": "self.md", "name2": "self2.md", "n": "fan1.md", "m": "fan2.md"}
	for src, want := range map[string]string{
		`{% include name %}`: "includes nest deeper than 200 levels",
		// read at render time: its literal include is followed then
		`{% include name2 %}`:                             "self2.md includes itself",
		`{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}`: "macro calls nest deeper than 200 levels",
	} {
		p, err := l.Compile(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out, err := p.RenderContext(context.Background(), env)
		if err == nil || !strings.Contains(err.Error(), want) || out != "" {
			t.Errorf("%s: %d bytes, %v; want an error saying %q", src, len(out), err, want)
		}
	}
	// Every include, literal or computed (fan2.md's literal ones load
	// only when fan1.md computes its name, past the check before
	// compiling), spends a step, and each step asks the context whether
	// the render may go on: 1 + 20 + 400 includes.
	p, err := l.Compile(`{% include n %}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx := &countingContext{Context: context.Background()}
	if out, err := p.RenderContext(ctx, env); err != nil || out != strings.Repeat(".", 400) {
		t.Fatalf("fan-out: %q, %v", out, err)
	}
	if ctx.asked < 421 {
		t.Errorf("the fan-out of 421 includes spent %d steps", ctx.asked)
	}
	for src, want := range map[string]string{
		`ab {% include "names.md" %}|{% include n2 %}`: "ab [7]|[7]",
		`ab {%- include n2 -%} c {%- include n2 %} d`:  "ab[7]c[7] d",
		`{% include n2 with a=1 only %}`:               "[1]",
	} {
		p, err := l.Compile(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out, err := p.RenderContext(context.Background(), Env{"n2": "names.md", "a": 7})
		if err != nil || out != want {
			t.Errorf("%s = %q, %v; want %q", src, out, err, want)
		}
	}
	// the columns pongo2 gives without the rewrite
	for src, want := range map[string]string{
		`ab {% include n with a= %}`:                    ":1:23: ",
		`ab {% include n junk %}`:                       ":1:17: ",
		`{%- include n -%} {%- include n -%} {{ 1 + }}`: ":1:44: ",
		`top {% include "after.md" %}`:                  "after.md:1:31: ",
		`{% include n with a=1 only %} {% include "names.md" with a=1 only %} {{ 1 + }}`: ":1:77: ",
	} {
		if _, err := l.Compile(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want the column %s", src, err, want)
		}
	}
}

// countingContext counts how often a render asks whether it may go on.
type countingContext struct {
	context.Context
	asked int
}

func (c *countingContext) Err() error { c.asked++; return c.Context.Err() }
