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

// A say: or prompt template searches the story directory, its prompts/
// and the overlay, not views/, as both engines render it: an include of a
// view partial by its views/-relative name fails at run time there (the
// existing engine: "unable to resolve template"), so it is reported with
// the name that works; the overlay is searched first.
func TestPongoSayIncludeDoesNotSearchViews(t *testing.T) {
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
    terminal: true
`,
		"views/part.pongo":  "part",
		"over/only_over.md": "over",
	})
	_, ds := Load(dir, story.Options{})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == "pongo" {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Line != 8 || !strings.Contains(got[0].Message, `unable to resolve template near "part.pongo"; views/part.pongo exists, but only views search views/`) || !strings.Contains(got[0].Message, `include "views/part.pongo"`) {
		t.Fatalf("pongo findings: %v", got)
	}
}
