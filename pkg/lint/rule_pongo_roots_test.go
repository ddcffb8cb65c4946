package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A prompt that includes a file outside the story's template roots is an
// error even when the path's words ("include", "not found") would make an
// ordinary unresolved include a warning.
func TestPongoOutsideRootsIsAlwaysAnError(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "include-not-found")
	files := map[string]string{
		"app.yaml": `app: {id: p}
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        with: {prompt_path: prompts/p.md}
        bind: {a: submission}
    terminal: true
`,
		"prompts/p.md": `{% include "` + filepath.Join(outside, "secret.txt") + `" %}`,
	}
	storytest.WriteTree(t, dir, files)
	_, ds := Load(dir, story.Options{})
	for _, d := range ds {
		if d.Rule == "pongo" && strings.Contains(d.Message, "refused") {
			if d.Severity != diag.Error {
				t.Fatalf("outside-roots include reported as %s: %v", d.Severity, d)
			}
			return
		}
	}
	t.Fatalf("no refusal reported: %v", ds)
}

// An {% include %} of a symlink inside prompts/ that points outside the
// roots is refused: the loader resolves links before its root check.
func TestPongoIncludeOfASymlinkOutIsRefused(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0:SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"app.yaml": `app: {id: p}
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        with: {prompt_path: prompts/p.md}
    terminal: true
`,
		"prompts/p.md":   `{% include "inner.md" %}`,
		"prompts/ok.md":  `fine`,
		"prompts/ok2.md": `{% include "ok.md" %}`,
	}
	storytest.WriteTree(t, dir, files)
	if err := os.Symlink(secret, filepath.Join(dir, "prompts", "inner.md")); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{})
	for _, d := range ds {
		if d.Rule == "pongo" && strings.Contains(d.Message, "refused") && d.Severity == diag.Error {
			return
		}
	}
	t.Fatalf("include of a symlink pointing outside not refused: %v", ds)
}

// A say: searches the story directory only, as both engines render it
// (conformance say-include-story-dir): an include of a view partial, an
// overlay or prompts/ file by its name there, or through @story, fails at
// run time (the existing engine: "unable to resolve template"), so each is
// reported with the name that works. A prompt file still searches the
// overlay and prompts/.
func TestPongoSayIncludeSearchesTheStoryDirectory(t *testing.T) {
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: {id: p}
prompts: {overlay: over}
root: start
states:
  start:
    view: "{% include \"part.pongo\" %}"
    on_enter:
      - say: "{% include \"part.pongo\" %}"
      - say: "{% include \"views/part.pongo\" %}{% include \"only_over.md\" %}"
      - say: "{% include \"in_prompts.md\" %}"
      - say: "{% include \"@story/top.md\" %}{% include \"top.md\" %}{% include \"prompts/in_prompts.md\" %}"
      - invoke: host.agent.ask
        with: {prompt_path: prompts/p.md}
    terminal: true
`,
		"views/part.pongo":      "part",
		"over/only_over.md":     "over",
		"prompts/in_prompts.md": "in prompts",
		"prompts/p.md":          `{% include "only_over.md" %}{% include "in_prompts.md" %}`,
		"top.md":                "top",
	})
	_, ds := Load(dir, story.Options{})
	want := map[int]string{
		8:  `unable to resolve template near "part.pongo"; views/part.pongo exists, but a say: searches the story directory only (not the prompts overlay, prompts/ or views/): include "views/part.pongo"`,
		9:  `unable to resolve template near "only_over.md"; over/only_over.md exists, but a say: searches the story directory only (not the prompts overlay, prompts/ or views/): include "over/only_over.md"`,
		10: `unable to resolve template near "in_prompts.md"; prompts/in_prompts.md exists, but a say: searches the story directory only (not the prompts overlay, prompts/ or views/): include "prompts/in_prompts.md"`,
		11: `unable to resolve template near "@story/top.md"; a say: knows no namespace (it searches the story directory for @story/top.md): include "top.md" by its path from the story directory`,
	}
	for _, d := range ds {
		if d.Rule != "pongo" {
			continue
		}
		w, ok := want[d.Line]
		if !ok || d.Severity != diag.Warning || !strings.Contains(d.Message, w) {
			t.Errorf("unexpected pongo finding: %v", d)
			continue
		}
		delete(want, d.Line)
	}
	for line, w := range want {
		t.Errorf("line %d: no pongo finding %q", line, w)
	}
}

// TestViewFileLinkedOutTellsNothingOfItsTarget: a view's layout or
// template file that a symlink leads out of the project gets the same
// findings whether its target exists or not, so a repository cannot learn
// what is on the machine that validates it. Before, a link to a missing
// path was "layout file ... not found" and one to an existing path the
// outside-root error: whether /home/runner/.ssh/id_rsa exists, say.
func TestViewFileLinkedOutTellsNothingOfItsTarget(t *testing.T) {
	there := filepath.Join(t.TempDir(), "there.pongo")
	if err := os.WriteFile(there, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	findings := func(target string) string {
		dir := t.TempDir()
		storytest.WriteTree(t, dir, map[string]string{
			".kitsoki/.keep": "",
			"app.yaml":       "app: {id: p, version: 0.1.0}\nroot: a\nstates:\n  a: {view: {extends: base}, terminal: true}\n  b: {view: {template_file: t.pongo}, terminal: true}\n",
			"views/.keep":    "",
		})
		for _, name := range []string{"base.pongo", "t.pongo"} {
			if err := os.Symlink(target, filepath.Join(dir, "views", name)); err != nil {
				t.Fatal(err)
			}
		}
		_, ds := Load(dir, story.Options{})
		var out []string
		for _, d := range ds {
			out = append(out, d.Rule+": "+strings.ReplaceAll(strings.ReplaceAll(d.Message, dir, "DIR"), target, "TARGET"))
		}
		return strings.Join(out, "\n")
	}
	got, missing := findings(there), findings(filepath.Join(filepath.Dir(there), "missing.pongo"))
	if got != missing {
		t.Errorf("an existing target:\n%s\na missing one:\n%s", got, missing)
	}
	if !strings.Contains(got, "symlink leading out of the project root") {
		t.Errorf("no outside-root error:\n%s", got)
	}
}

// TestPongoPromptUnknownNamespaceWarns: a prompt file including a name
// under a namespace the prompt loader does not register (@foo/,
// @import/<alias>/) loads on the existing engine (its validate: valid), so
// it is a warning here, never an error that fails the author's CI
// (conformance view-at-name-plain's neighbours).
func TestPongoPromptUnknownNamespaceWarns(t *testing.T) {
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: {id: p}
hosts: [host.agent.ask]
intents: {go: {}}
root: a
states:
  a:
    view: "A"
    on:
      go:
        - effects:
            - invoke: host.agent.ask
              with: {prompt_path: prompts/p.md}
          target: a
`,
		"prompts/p.md": `{% include "@foo/x.md" %}{% include "@import/kid/x.md" %}`,
		"@foo/x.md":    "foo",
	})
	_, ds := Load(dir, story.Options{})
	n := 0
	for _, d := range ds {
		if d.Rule != "pongo" {
			continue
		}
		n++
		if d.Severity != diag.Warning || !strings.Contains(d.Message, "no namespace of this name is registered") || !strings.Contains(d.Message, "a prompt knows the namespaces @story/ and @shared/ only") {
			t.Errorf("want a warning naming the namespaces, got %v", d)
		}
	}
	if n == 0 {
		t.Fatalf("no pongo finding: %v", ds)
	}
}
