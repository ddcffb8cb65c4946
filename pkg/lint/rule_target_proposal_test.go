package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A proposal's on_complete target is resolved from the top of the tree as
// written, and one naming no state fails the existing engine's load
// (`proposal "cmd" execute on_complete[0]: target "nowhere" (resolved:
// "nowhere") does not exist`), guarded, nested or not; the forms that do
// name a state load (conformance proposal-oncomplete-target).
func TestProposalOnCompleteTargetResolves(t *testing.T) {
	refused := []string{`nowhere`, `"."`, `"@exit:done"`, `" hub"`, `"/hub"`, `".."`, `"../nowhere"`, `"..hub"`,
		`"{% if true %}hub{% endif %}"`}
	var b strings.Builder
	b.WriteString("app: {id: t}\nroot: hub\nhosts: [host.run]\nexits: {done: {}}\nintents: {go: {}}\n" +
		"states:\n  hub:\n    type: compound\n    initial: c\n    on: {go: [{target: \"@exit:done\"}]}\n    states: {c: {}}\n" +
		"proposals:\n  cmd:\n    execute:\n      invoke: host.run\n      background: true\n      on_complete:\n") // 17 lines
	for _, tg := range refused {
		b.WriteString("        - target: " + tg + "\n")
	}
	b.WriteString("        - {when: \"false\", target: nowhere}\n")
	b.WriteString("        - {invoke: host.run, on_complete: [{target: nowhere}]}\n")
	_, ds := LoadSource("app.yaml", []byte(b.String()), story.Options{})
	lines := map[int]bool{}
	for _, d := range ds {
		if d.Rule == ruleTarget.ID && d.Severity == diag.Error {
			lines[d.Line] = true
		}
	}
	for i := range len(refused) + 2 {
		if !lines[18+i] {
			t.Errorf("line %d: no target error; got %s", 18+i, render(ds))
		}
	}
	// the forms upstream loads (the golden's story)
	_, ds = Load(filepath.Join("..", "engine", "testdata", "conformance", "proposal-oncomplete-target", "app.yaml"), story.Options{})
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Errorf("a target upstream takes is refused: %s", d)
		}
	}
}

// An imported child's proposals are not folded upstream, so a bad target
// there is a warning.
func TestProposalOnCompleteTargetChild(t *testing.T) {
	dir := t.TempDir()
	kid := "app: {id: kid}\nroot: k\nhosts: [host.run]\nproposals:\n  cmd: {execute: {invoke: host.run, background: true, on_complete: [{target: nowhere}]}}\nstates: {k: {}}\n"
	top := "app: {id: top}\nroot: a\nimports: {kid: {source: ./kid}}\nintents: {go: {}}\nstates:\n  a: {on: {go: [{target: kid}]}}\n"
	for p, s := range map[string]string{"kid/app.yaml": kid, "app.yaml": top} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{})
	warned := false
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Errorf("an imported child's proposal is not checked upstream: %s", d)
		}
		warned = warned || d.Rule == ruleTarget.ID
	}
	if !warned {
		t.Errorf("no target warning for the child's proposal: %s", render(ds))
	}
}
