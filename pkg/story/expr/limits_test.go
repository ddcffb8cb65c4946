package expr

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestGuardLimitsRefuseBeforeParsing: a guard of a million parentheses (the
// attack that kept validate busy for minutes) and one nested 65 deep are
// positioned errors naming the limit.
func TestGuardLimitsRefuseBeforeParsing(t *testing.T) {
	huge := strings.Repeat("(", 1_000_000) + "true" + strings.Repeat(")", 1_000_000)
	_, err := CompileGuard(huge)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "over the limit of 16384") || e.Line != 1 || e.Col != MaxExprBytes+1 {
		t.Fatalf("1M parens: %v (%+v)", err, e)
	}
	if len(e.Msg) > 1024 {
		t.Errorf("message repeats the source: %d bytes", len(e.Msg))
	}
	deep := strings.Repeat("(", MaxNesting+1) + "true" + strings.Repeat(")", MaxNesting+1)
	_, err = CompileGuard(deep)
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "deeper than 64") || e.Col != MaxNesting+1 {
		t.Fatalf("deep: %v", err)
	}
	ok := strings.Repeat("(", MaxNesting) + "true" + strings.Repeat(")", MaxNesting)
	if _, err := CompileGuard(ok); err != nil {
		t.Fatalf("64 levels must compile: %v", err)
	}
	// brackets inside strings do not count
	if _, err := CompileGuard(`world.x == "` + strings.Repeat("(", 100) + `"`); err != nil {
		t.Fatalf("quoted brackets: %v", err)
	}
	// a matches literal expr-lang would compile while checking (700 such
	// repeats in a 15 KB guard took 592 MB), refused at the literal
	costly := `world.x matches ("` + strings.Repeat(`[a-z]{1,1000}`, 6) + `")`
	if _, err = CompileGuard(costly); !errors.As(err, &e) || !strings.Contains(e.Msg, "matches: the pattern would compile to about") || e.Col != 18 {
		t.Fatalf("costly matches: %v", err)
	}
	if _, err := CompileGuard(`world.x matches "^.{0,1000}$" && "matches" matches "m"`); err != nil {
		t.Fatalf("a pattern a guard means: %v", err)
	}
}

func TestTemplateLimits(t *testing.T) {
	deep := strings.Repeat("{{ if world.a }}", MaxNesting+1) + "x" + strings.Repeat("{{ end }}", MaxNesting+1)
	_, err := CompileTemplate(deep)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "nest deeper than 64") || e.Col != 1+16*MaxNesting {
		t.Fatalf("value template nesting: %v", err)
	}
	big := "{{ world.a }}" + strings.Repeat("x", MaxTemplateBytes)
	if _, err := CompileTemplate(big); err == nil || !strings.Contains(err.Error(), "over the limit of 1048576") {
		t.Fatalf("value template length: %v", err)
	}
	loops := strings.Repeat("{% for a in l %}", MaxNesting+1) + strings.Repeat("{% endfor %}", MaxNesting+1)
	if _, err := CompilePongo(loops); err == nil || !strings.Contains(err.Error(), "block tags nest deeper than 64") {
		t.Fatalf("pongo nesting: %v", err)
	}
	parens := "{{ " + strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000) + " }}"
	if _, err := CompilePongo(parens); err == nil || !strings.Contains(err.Error(), "brackets nest deeper") {
		t.Fatalf("pongo parens: %v", err)
	}
	if _, err := CompilePongo(strings.Repeat("x", MaxTemplateBytes+1)); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("pongo length: %v", err)
	}
}

func mustPongo(t *testing.T, src string) *Pongo {
	t.Helper()
	p, err := CompilePongo(src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func hundred() []any {
	l := make([]any, 100)
	for i := range l {
		l[i] = i
	}
	return l
}

// TestRenderBudget: nine nested loops over 100 items (10^18 iterations)
// stop at the step budget; a render whose context ends stops.
func TestRenderBudget(t *testing.T) {
	nine := strings.Repeat("{% for a in l %}", 9) + strings.Repeat("{% endfor %}", 9)
	p := mustPongo(t, nine)
	_, err := p.Render(Env{"l": hundred()})
	if !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), "more than 1000000 loop iterations") {
		t.Fatalf("nine loops: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.RenderContext(ctx, Env{"l": hundred()})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// forloop keeps pongo2's meaning
	out, err := mustPongo(t, `{% for x in l %}{% for y in l %}{{ forloop.Parentloop.Counter }}{{ forloop.Counter0 }}{% if forloop.Last %};{% endif %}{% endfor %}{% empty %}none{% endfor %}`).Render(Env{"l": []any{1, 2}})
	if err != nil || out != "1011;2021;" {
		t.Fatalf("forloop: %q %v", out, err)
	}
}

func TestRenderOutputAndFilterSizes(t *testing.T) {
	for _, src := range []string{
		`{{ "x"|ljust:2000000000 }}`,
		`{{ "x"|rjust:2000000000 }}`,
		`{{ "x"|center:2000000000 }}`,
		`{{ "x"|col:2000000000 }}`,
		`{{ "x"|rcol:2000000000 }}`,
		`{{ 1.5|floatformat:2000000000 }}`,
		`{{ "x"|stringformat:"%2000000000s" }}`,
	} {
		_, err := mustPongo(t, src).Render(nil)
		if err == nil || !strings.Contains(err.Error(), "over the limit of 16777216") {
			t.Errorf("%s: %v", src, err)
		}
	}
	// doubling through set in a loop
	dbl := `{% set s = "xxxxxxxx" %}{% for i in l %}{% set s = s|add:s %}{% endfor %}{{ s|length }}`
	if _, err := mustPongo(t, dbl).Render(Env{"l": hundred()}); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Fatalf("doubling: %v", err)
	}
	quotes := strings.Repeat(`"`, 3<<20) // 18 MiB escaped
	if _, err := mustPongo(t, `{{ s|escape }}`).Render(Env{"s": quotes}); err == nil || !strings.Contains(err.Error(), "filter escape would produce") {
		t.Fatalf("escape: %v", err)
	}
	out := `{% for i in l %}{% for j in l %}{% for k in l %}` + strings.Repeat("x", 100) + `{% endfor %}{% endfor %}{% endfor %}`
	if _, err := mustPongo(t, out).Render(Env{"l": hundred()}); !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), "output is over") {
		t.Fatalf("output: %v", err)
	}
	// the replaced filters keep pongo2's results
	for src, want := range map[string]string{
		`{{ "ab"|ljust:4 }}|`:                               "ab  |",
		`{{ "ab"|rjust:4 }}`:                                "  ab",
		`{{ "ab"|center:5 }}|`:                              "  ab |",
		`{{ l|join:"," }}`:                                  "1,2",
		`{{ "a,b"|split:","|join:"+" }}`:                    "a+b",
		`{{ "ab"|make_list|join:"." }}`:                     "a.b",
		`{{ 1|add:2 }} {{ "a"|add:"b" }}`:                   "3 ab",
		`{{ 3.0|floatformat }} {{ 3.14159|floatformat:2 }}`: "3 3.14",
		`{{ 5|stringformat:"%03d" }}`:                       "005",
		`{{ "<a>"|escape }}`:                                "&lt;a&gt;",
		`{{ "a b"|urlencode }}`:                             "a+b",
	} {
		got, err := mustPongo(t, src).Render(Env{"l": []any{1, 2}})
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestRecursiveMacroStops: a macro calling itself is an error at the depth
// limit, not a Go stack overflow.
func TestRecursiveMacroStops(t *testing.T) {
	p := mustPongo(t, "{% macro f(n) %}[{{ f(n) }}]{% endmacro %}{{ f(1) }}")
	_, err := p.Render(nil)
	if err == nil || !strings.Contains(err.Error(), "macro calls nest deeper than 200") {
		t.Fatalf("recursion: %v", err)
	}
	out, err := mustPongo(t, "{% macro g(x) %}<{{ x }}>{% endmacro %}{{ g(1) }}{{ g(2) }}").Render(nil)
	if err != nil || out != "<1><2>" {
		t.Fatalf("macro: %q %v", out, err)
	}
}

func TestValueTemplateRangeBudget(t *testing.T) {
	src := strings.Repeat("{{ range world.l }}", 9) + "{{ end }}" + strings.Repeat("{{ end }}", 8)
	tpl, err := CompileTemplate(src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(Env{"world": map[string]any{"l": hundred()}})
	if !errors.Is(err, ErrRenderBudget) {
		t.Fatalf("nine ranges: %v", err)
	}
}

// sharedLimits bound the shared budgets below: a hundredth of the
// production steps and a 256th of its output (TestRenderLimitsDefault
// holds those), so the renders that pass them are as much smaller.
var sharedLimits = RenderLimits{Steps: MaxRenderSteps / 100, Out: MaxRenderBytes / 256}

// TestSharedRenderBudget: renders under WithSharedBudget spend one budget
// (two loops of 6,000 pass alone and fail together at 10,000 steps), and a
// render whose own context, derived from the shared one, has ended stops.
func TestSharedRenderBudget(t *testing.T) {
	p := mustPongo(t, `{% for a in l %}{% endfor %}`)
	l := make([]any, sharedLimits.Steps*6/10)
	if _, err := p.RenderContext(withSharedBudget(context.Background(), sharedLimits), Env{"l": l}); err != nil {
		t.Fatal(err)
	}
	ctx := withSharedBudget(context.Background(), sharedLimits)
	if _, err := p.RenderContext(ctx, Env{"l": l}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.RenderContext(ctx, Env{"l": l}); !errors.Is(err, ErrRenderBudget) {
		t.Fatalf("second render under one budget: %v, want the budget's error", err)
	}
	cctx, cancel := context.WithCancel(withSharedBudget(context.Background(), sharedLimits))
	cancel()
	if _, err := p.RenderContext(cctx, Env{"l": l}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestSharedBudgetValueTemplates: {{ }} value templates spend a shared
// budget too (their output and their range iterations), a nested
// WithSharedBudget joins the outer budget, and ShareBudget hands one on.
func TestSharedBudgetValueTemplates(t *testing.T) {
	big := strings.Repeat("x", sharedLimits.Out/2+1)
	tpl, err := CompileTemplate("{{ world.s }}!")
	if err != nil {
		t.Fatal(err)
	}
	env := Env{"world": map[string]any{"s": big}, ContextKey: withSharedBudget(context.Background(), sharedLimits)}
	if _, err := tpl.Render(env); err != nil {
		t.Fatalf("alone: %v", err)
	}
	ctx := withSharedBudget(context.Background(), sharedLimits)
	env[ContextKey] = ctx
	if _, err := tpl.Render(env); err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(env)
	if !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), "a turn or a view") {
		t.Fatalf("second render under one budget: %v", err)
	}
	// the budget has failed: a pongo2 render under it fails too
	if _, err := mustPongo(t, "hi").Render(Env{ContextKey: ctx}); !errors.Is(err, ErrRenderBudget) {
		t.Fatalf("pongo2 after the budget failed: %v", err)
	}

	rng, err := CompileTemplate("{{ range world.l }}.{{ end }}")
	if err != nil {
		t.Fatal(err)
	}
	n := sharedLimits.Steps * 6 / 10
	env = Env{"world": map[string]any{"l": make([]any, n)}, ContextKey: withSharedBudget(context.Background(), sharedLimits)}
	if _, err := rng.Render(env); err != nil {
		t.Fatal(err)
	}
	if _, err := rng.Render(env); !errors.Is(err, ErrRenderBudget) {
		t.Fatalf("two ranges of %d under one budget: %v", n, err)
	}

	outer := withSharedBudget(context.Background(), sharedLimits)
	if WithSharedBudget(outer) != outer {
		t.Fatal("a nested WithSharedBudget made a second budget")
	}
	p := mustPongo(t, `{% for a in l %}{% endfor %}`)
	l := make([]any, n)
	if _, err := p.RenderContext(outer, Env{"l": l}); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := p.RenderContext(ShareBudget(cctx, outer), Env{"l": l}); !errors.Is(err, ErrRenderBudget) {
		t.Fatalf("ShareBudget: %v, want the outer budget's error", err)
	}
	if ShareBudget(cctx, context.Background()) != cctx {
		t.Fatal("ShareBudget of a context with no budget changed ctx")
	}
}

// TestFilterBodyHeld: what a {% filter %} or {% spaceless %} body writes
// collects in a buffer of pongo2's own before it reaches the output, so it
// is charged as loops, includes and macro calls are: 300 prints of a 1 MiB
// value in one block is an error past 64 MiB, not 300 MB held (a 1 MiB
// view of such prints held 95 GB), and the blocks keep pongo2's results,
// whitespace trims included. The held bound here is a 64th of the
// production one (PongoLoader.Limits), the prints as much smaller;
// TestRenderLimitsDefault holds the production bound.
func TestFilterBodyHeld(t *testing.T) {
	l := NewPongoLoader()
	l.Limits = RenderLimits{Held: 1 << 20}
	for _, tag := range []string{"filter upper", "spaceless"} {
		end := "end" + strings.Fields(tag)[0]
		src := "{% " + tag + " %}" + strings.Repeat("{{ s }}", 300) + "{% " + end + " %}"
		p, err := l.Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = p.Render(Env{"s": strings.Repeat("x", 16<<10)})
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), "built more than 1048576 bytes") {
			t.Errorf("%s body: %v", tag, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s: the render allocated %d bytes", tag, grew)
		}
	}
	for src, want := range map[string]string{
		`{% filter upper %}a{{ s }}{% endfilter %}`:                             "AB",
		`{% filter lower|upper %}x{% endfilter %}|`:                             "X|",
		`<{% filter upper -%}  a  {%- endfilter %}>`:                            "<A>",
		`<{%- filter upper %} a {% endfilter -%} >`:                             "< A >",
		`{% filter stringformat:"%s!" %}a{% endfilter %}`:                       "a!",
		`{% filter upper %}{% filter lower %}Q{% endfilter %}r{% endfilter %}`:  "QR",
		`{% for i in l %}{% filter upper %}{{ i }}a{% endfilter %}{% endfor %}`: "1A2A",
		"{% spaceless %}<a>  \n <b> {{ s }}</b>{% endspaceless %}":              "<a><b> b</b>",
		"<{% spaceless -%} <a> {%- endspaceless %}>":                            "<<a>>",
	} {
		got, err := mustPongo(t, src).Render(Env{"s": "b", "l": []any{1, 2}})
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestNextTagFindsTheFirstOpener: nextTag gives the first "{{" or "{%" at
// or after i, whichever comes first, as a search for each did.
func TestNextTagFindsTheFirstOpener(t *testing.T) {
	first := func(s string, i int) (int, string) {
		a, c := strings.Index(s[i:], "{{"), strings.Index(s[i:], "{%")
		switch {
		case a < 0 && c < 0:
			return -1, ""
		case c < 0 || (a >= 0 && a < c):
			return i + a, "}}"
		}
		return i + c, "%}"
	}
	for _, s := range []string{"", "{", "x{", "{{", "{%", "{{%", "{%{", "a{b{{c", "a{ {%b", "{x{y{%}}", "}}{%{{", "{{{{", "ab"} {
		for i := 0; i <= len(s); i++ {
			gotAt, gotClose := nextTag(s, i)
			wantAt, wantClose := first(s, i)
			if gotAt != wantAt || gotClose != wantClose {
				t.Errorf("nextTag(%q, %d) = %d %q, want %d %q", s, i, gotAt, gotClose, wantAt, wantClose)
			}
		}
	}
}

// TestIfchangedTag: kitsoki's ifchanged keeps pongo2's output, charges the
// body it renders to compare (pongo2 buffered it whole), renders nothing
// for an unchanged value with no else (pongo2 ran the missing else: a nil
// pointer), and forgets what it saw when the render ends (pongo2 compared
// a second render with the first). The held bound here is a 64th of the
// production one, the prints as much smaller, as in TestFilterBodyHeld;
// TestRenderLimitsDefault holds the production bound.
func TestIfchangedTag(t *testing.T) {
	l := NewPongoLoader()
	l.Limits = RenderLimits{Held: 1 << 20}
	p, err := l.Compile("{% ifchanged %}" + strings.Repeat("{{ s }}", 300) + "{% endifchanged %}")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = p.Render(Env{"s": strings.Repeat("x", 16<<10)})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrRenderBudget) || !strings.Contains(err.Error(), "built more than 1048576 bytes") {
		t.Errorf("ifchanged body: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("the render allocated %d bytes", grew)
	}
	env := Env{"l": []any{"a", "a", "b", "b", "a"}}
	for src, want := range map[string]string{
		`{% for i in l %}{% ifchanged i %}{{ i }}{% endifchanged %}{% endfor %}`:            "aba",
		`{% for i in l %}{% ifchanged i %}{{ i }}{% else %}-{% endifchanged %}{% endfor %}`: "a-b-a",
		`{% for i in l %}{% ifchanged %}<{{ i }}>{% endifchanged %}{% endfor %}`:            "<a><b><a>",
		`{% for i in l %}{% ifchanged %}{{ i }}{% else %}-{% endifchanged %}{% endfor %}`:   "aba",
	} {
		p := mustPongo(t, src)
		for round := range 2 {
			got, err := p.Render(env)
			if err != nil || got != want {
				t.Errorf("%s (render %d) = %q, %v; want %q", src, round+1, got, err, want)
			}
		}
	}
}

// TestRenderLimitsDefault: the zero RenderLimits (every loader's and every
// WithSharedBudget's, unless a test sets one) are the production bounds, a
// million steps, 16 MiB out and 64 MiB held.
func TestRenderLimitsDefault(t *testing.T) {
	if MaxRenderSteps != 1_000_000 || MaxRenderBytes != 16<<20 || MaxRenderHeld != 64<<20 {
		t.Errorf("MaxRenderSteps %d, MaxRenderBytes %d, MaxRenderHeld %d; want 1,000,000, 16 MiB and 64 MiB", MaxRenderSteps, MaxRenderBytes, MaxRenderHeld)
	}
	var zero RenderLimits
	if zero.steps() != MaxRenderSteps || zero.out() != MaxRenderBytes || zero.held() != MaxRenderHeld || NewPongoLoader().Limits != zero {
		t.Errorf("the zero limits bound %d steps, %d out and %d held bytes, want MaxRenderSteps, MaxRenderBytes and MaxRenderHeld", zero.steps(), zero.out(), zero.held())
	}
	if b := WithSharedBudget(context.Background()).Value(sharedBudgetKey{}).(*renderBudget); b.lim != zero {
		t.Errorf("WithSharedBudget's limits are %+v, want the zero ones", b.lim)
	}
	if l := (RenderLimits{Steps: 3, Out: 5, Held: 4}); l.steps() != 3 || l.out() != 5 || l.held() != 4 {
		t.Errorf("RenderLimits{3, 5, 4} bound %d steps, %d out and %d held bytes", l.steps(), l.out(), l.held())
	}
}
