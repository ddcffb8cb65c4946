package expr

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

var benchEnv = Env{
	"world": map[string]any{"judge_mode": "llm", "cycle": 2, "max_cycles": 3,
		"llm_verdict": map[string]any{"confidence": 0.9, "verdict": "ok", "intent": "accept", "reason": "fine"},
		"items":       []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "c"}}},
	"slots": map[string]any{"text": "hello"},
}

// benchLoop runs one step per benchmark iteration, reporting allocations;
// a step's error fails the benchmark.
func benchLoop(b *testing.B, step func() error) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		if err := step(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGuardEval(b *testing.B) {
	p, err := CompileGuard("world.judge_mode != 'human' && world.llm_verdict.confidence >= 0.7 && world.llm_verdict.verdict != 'uncertain' && len(world.items) > 0")
	if err != nil {
		b.Fatal(err)
	}
	env := withRoots(benchEnv)
	b.ReportAllocs()
	for b.Loop() {
		ok, err := p.EvalBool(env)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkGuardCompile(b *testing.B) {
	benchLoop(b, func() error {
		_, err := CompileGuard("world.cycle >= world.max_cycles && world.llm_verdict.intent == 'accept'")
		return err
	})
}

// benchTemplateRender renders the template src against benchEnv.
func benchTemplateRender(b *testing.B, src string) {
	b.Helper()
	t, err := CompileTemplate(src)
	if err != nil {
		b.Fatal(err)
	}
	env := withRoots(benchEnv)
	benchLoop(b, func() error {
		_, err := t.Render(env)
		return err
	})
}

func BenchmarkTemplateRenderTyped(b *testing.B) {
	benchTemplateRender(b, "{{ world.cycle + 1 }}")
}

func BenchmarkTemplateRenderString(b *testing.B) {
	benchTemplateRender(b, "Cycle {{ world.cycle }} of {{ world.max_cycles }}: {{ if world.llm_verdict.intent == 'accept' }}accepted ({{ world.llm_verdict.reason }}){{ else }}open{{ end }} [{{ range world.items }}{{ .name }},{{ end }}]")
}

func BenchmarkRenderValueTree(b *testing.B) {
	with := map[string]any{
		"agent": "judge", "schema": "schemas/verdict.json",
		"args": map[string]any{"draft": "{{ world.llm_verdict.reason }}", "cycle": "{{ world.cycle }}", "msg": "cycle {{ world.cycle }}"},
	}
	pv, err := PrepareValue(with)
	if err != nil {
		b.Fatal(err)
	}
	benchLoop(b, func() error {
		_, err := pv.Render(benchEnv)
		return err
	})
}

func BenchmarkPongoRender(b *testing.B) {
	p, err := CompilePongo("Cycle {{ world.cycle }}/{{ world.max_cycles }} {% if world.llm_verdict.intent == 'accept' %}ok{% endif %} {% for x in world.items %}{{ x.name }}{% endfor %} {{ world.missing ?? '(none)' }}")
	if err != nil {
		b.Fatal(err)
	}
	benchLoop(b, func() error {
		_, err := p.Render(benchEnv)
		return err
	})
}

// BenchmarkPongoCompileFileInclude compiles a prompt that includes and
// extends files of the story: every name goes through the loader's
// resolution and its template-root check.
func BenchmarkPongoCompileFileInclude(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{
		"prompts/top.md":  "{% extends 'prompts/base.md' %}{% block body %}{% include 'prompts/part.md' %} {% include '../views/v.md' %}{% endblock %}",
		"prompts/base.md": "BASE {% block body %}{% endblock %}",
		"prompts/part.md": "part {{ args.x ?? 'p' }}",
		"views/v.md":      "view",
	}
	storytest.WriteTree(b, dir, files)
	l := NewPongoLoader(dir, filepath.Join(dir, "prompts"))
	top := filepath.Join(dir, "prompts", "top.md")
	benchLoop(b, func() error {
		_, err := l.CompileFile(top)
		return err
	})
}

// BenchmarkPongoLimitsManyPrints: the limit check of a template of 40,000
// prints and no block tag (linear in the source; it read the rest of the
// source at every print).
func BenchmarkPongoLimitsManyPrints(b *testing.B) {
	src := strings.Repeat("{{ world.n }}", 40000)
	for b.Loop() {
		if e := checkPongoLimits("view", src); e != nil {
			b.Fatal(e)
		}
	}
}

// BenchmarkGuardMatches evaluates a guard matching a literal pattern and
// one from the world, as a guard re-evaluated in a loop does.
func BenchmarkGuardMatches(b *testing.B) {
	env := Env{"world": map[string]any{"s": "alphabeta-123xy", "p": `^(alpha|beta)+-[0-9]{2,4}$`}}
	p, err := CompileGuard(`world.s matches "^(alpha|beta|gamma)+-[0-9]{2,4}(x|y|z)*$" || world.s matches world.p`)
	if err != nil {
		b.Fatal(err)
	}
	benchLoop(b, func() error { _, err := p.EvalBool(env); return err })
}
