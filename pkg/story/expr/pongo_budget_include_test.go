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
// pongo2's panic over a foreign error).
func TestRenderBudgetReachesIncludes(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"big.md":   `{% for i in r %}{{ big }}{% endfor %}`,
		"cube.md":  `{% for i in r %}{% for j in r %}{% for k in r %}x{% endfor %}{% endfor %}{% endfor %}`,
		"names.md": `[{{ a }}|{{ outer }}]`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := NewPongoLoader(dir)
	env := Env{"r": make([]int, 300), "big": strings.Repeat("b", 1<<20), "outer": "O"}
	for _, tc := range []struct{ src, want string }{
		{`{% include "big.md" %}`, "loops wrote more than"},
		{`{% macro m() %}{% for i in r %}{{ big }}{% endfor %}{% endmacro %}{{ m()|length }}`, "loops wrote more than"},
		{`{% filter lower %}{% for i in r %}{{ big }}{% endfor %}{% endfilter %}`, "loops wrote more than"},
		{`{% include "cube.md" with r=r only %}`, "more than 1000000 loop iterations"},
		{`{% include "cube.md" with r=r only -%}`, "more than 1000000 loop iterations"},
		{`{% include 'cube.md' with r=r q="%}" only %}`, "more than 1000000 loop iterations"},
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
