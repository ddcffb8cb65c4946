package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/fsmemo"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// listTree lists every directory below dir through m, as validate's walk
// does before the run's loads.
func listTree(t *testing.T, m *fsmemo.Memo, dir string) {
	t.Helper()
	es, err := m.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.IsDir() {
			listTree(t, m, filepath.Join(dir, e.Name()))
		}
	}
}

// Every story of the fixtures loads to the same diagnostics through one
// run's memo of the file system (its directories listed beforehand, as
// validate ./... does) as looked up afresh.
func TestLoadThroughMemoAgrees(t *testing.T) {
	m := &fsmemo.Memo{}
	listTree(t, m, fixtures)
	n := 0
	filepath.WalkDir(fixtures, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != story.StoryFile {
			return err
		}
		n++
		_, want := Load(p, story.Options{LookupEnv: noEnv})
		_, got := Load(p, story.Options{LookupEnv: noEnv, FS: m})
		if render(got) != render(want) {
			t.Errorf("%s: through the memo:\n%s\nafresh:\n%s", p, render(got), render(want))
		}
		return nil
	})
	if n < 50 {
		t.Fatalf("only %d stories found", n)
	}
}

// Symlinks keep their meaning through the memo: a prompt linked out of
// the story, a "../" through a linked directory, an include of a link
// pointing out are refused; a link inside is not.
func TestLoadThroughMemoSymlinks(t *testing.T) {
	outside := t.TempDir()
	storytest.WriteFile(t, filepath.Join(outside, "passwd"), "root:x:0:0\n")
	root := t.TempDir()
	for name, with := range map[string]string{
		"linkout": "prompt_path: prompts/link.md",
		"dotdot":  "prompt_path: ../out/passwd",
		"linkin":  "prompt_path: prompts/alias.md",
		"include": "prompt_path: prompts/inc.md",
	} {
		dir := filepath.Join(root, name)
		storytest.WriteTree(t, dir, map[string]string{
			"app.yaml":       "app: {id: c}\nagents: {j: {system_prompt: j}}\nroot: s\nstates:\n  s:\n    terminal: true\n    on_enter:\n      - invoke: host.agent.ask\n        with: {agent: j, " + with + "}\n",
			"prompts/p.md":   "hello",
			"prompts/inc.md": `{% include "inner.md" %}`,
		})
		for link, target := range map[string]string{"prompts/link.md": filepath.Join(outside, "passwd"), "prompts/alias.md": "p.md", "prompts/inner.md": filepath.Join(outside, "passwd")} {
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	m := &fsmemo.Memo{}
	listTree(t, m, root)
	for _, name := range []string{"linkout", "dotdot", "linkin", "include"} {
		dir := filepath.Join(root, name)
		_, want := Load(dir, story.Options{})
		_, got := Load(dir, story.Options{FS: m})
		if render(got) != render(want) {
			t.Errorf("%s: through the memo:\n%s\nafresh:\n%s", name, render(got), render(want))
		}
		refused := false
		for _, d := range got {
			refused = refused || d.Severity == diag.Error && (d.Rule == "prompt-root" || d.Rule == "pongo" && strings.Contains(d.Message, "refused"))
		}
		if refused != (name != "linkin") {
			t.Errorf("%s: refused %v:\n%s", name, refused, render(got))
		}
	}
}
