package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// The target rule rejects "..c" exactly as the engine cannot enter it.
func TestDotDotNameIsNotASibling(t *testing.T) {
	src := "app: {id: t}\nroot: a\nintents: {go: {}}\nstates:\n  a:\n    initial: b\n    states:\n      b:\n        on:\n          go: [{target: ..c}]\n      c: {terminal: true}\n"
	st, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	found := false
	for _, d := range ds {
		if d.Rule == ruleTarget.ID && d.Line == 10 {
			found = true
		}
	}
	if !found {
		t.Fatalf("..c accepted: %s", render(ds))
	}
	if tg, err := st.ResolveFrom("a.b", "../c"); err != nil || tg.Path != "a.c" {
		t.Fatalf("ResolveFrom ../c = %+v, %v", tg, err)
	}
}

// TestDidYouMeanBounded: a did-you-mean compares a name with every known
// one, so a story with thousands of unknown targets among thousands of
// states cost their product (3,000 parallel regions: 40 s in validate).
// The first maxSuggestions lookups of a check suggest; every error is
// still reported.
func TestDidYouMeanBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("app: { id: x, version: 0.1.0 }\nintents:\n  go: { description: g }\nroot: p\nstates:\n  p:\n    type: parallel\n    states:\n")
	const regions = 300
	for i := range regions {
		fmt.Fprintf(&b, "      r%d:\n        initial: a\n        states:\n          a: { on: { go: [ { target: b } ] } }\n          bb: {}\n", i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{})
	var errs, suggested int
	for _, d := range ds {
		if d.Rule == ruleTarget.ID {
			errs++
			if strings.Contains(d.Message, "did you mean `") {
				suggested++
			}
		}
	}
	if errs != regions || suggested != maxSuggestions {
		t.Errorf("%d target errors, %d with a suggestion; want %d and %d", errs, suggested, regions, maxSuggestions)
	}
}

// A target holding a pongo tag and no {{ }} is read as written by upstream
// (its loader: `transition target "{% if … %}…" (resolved: "{% if … %}…")
// does not exist`), as an arc, a timeout and an on_complete target; with a
// {{ }} it is a template, checked at run time.
func TestTagOnlyTargetIsAPath(t *testing.T) {
	src := "app: {id: t}\nroot: a\nintents: {go: {}, go2: {}}\nhosts: [host.x]\nworld: {ok: {type: bool, default: true}}\nstates:\n" +
		"  a:\n    on:\n" +
		"      go: [{target: \"{% if world.ok %}b{% else %}a{% endif %}\"}]\n" + // line 9
		"      go2: [{target: \"{% if world.ok %}b{% else %}a{% endif %}{{ '' }}\"}]\n" +
		"    timeout: {after: 1m, target: \"{% if world.ok %}b{% endif %}\"}\n" + // line 11
		"    on_enter:\n      - invoke: host.x\n        background: true\n        on_complete:\n" +
		"          - target: \"{% if world.ok %}b{% endif %}\"\n" + // line 16
		"  b: {}\n"
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	lines := map[int]bool{}
	for _, d := range ds {
		if d.Rule == ruleTarget.ID {
			lines[d.Line] = true
		}
	}
	if len(lines) != 3 || !lines[9] || !lines[11] || !lines[16] {
		t.Errorf("target errors at lines %v, want 9, 11 and 16: %s", lines, render(ds))
	}
	// a path is no template: no target-syntax finding about how it would
	// render, no timeout warning that it is templated
	for _, d := range ds {
		if lines[d.Line] && d.Rule != ruleTarget.ID {
			t.Errorf("a tag-only target is refused as a path alone; got %s", d)
		}
	}
}

// The same for emit_intent: upstream renders it only when it holds {{,
// so "{% if true %}hop{% endif %}" is a literal intent no arc handles
// (its loader: `emit_intent "{% if true %}hop{% endif %}" is not declared
// on state "s0"'s on: arcs (nor any ancestor's)`).
func TestTagOnlyEmitIsAName(t *testing.T) {
	src := "app: {id: t}\nroot: s0\nintents: {em: {}, hop: {}}\nstates:\n  s0:\n    on:\n" +
		"      em: [{target: ., effects: [{emit_intent: \"{% if true %}hop{% endif %}\"}]}]\n" + // line 7
		"      hop: [{target: ., effects: [{emit_intent: \"{% if true %}hop{% endif %}{{ '' }}\"}]}]\n"
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	var lines []int
	for _, d := range ds {
		if d.Rule == story.RuleIntent.ID {
			lines = append(lines, d.Line)
		}
	}
	if len(lines) != 1 || lines[0] != 7 {
		t.Errorf("intent errors at lines %v, want 7: %s", lines, render(ds))
	}
}
