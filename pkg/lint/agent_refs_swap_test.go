package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// TestExistingFileSwappedForALinkOutTellsNothing: existingFile (behind
// agent-file, prompt-root, schema, imports' overrides.prompts and the
// decider's prompt) asked Inside through the project root, then stat'ed the
// path by path: a prompt swapped for a link out in between was a file when
// the target outside was one, and missing when it was a directory or
// absent, so the findings told which paths exist outside. It is one look
// through the root now: a link out is no file whatever lies outside.
func TestExistingFileSwappedForALinkOutTellsNothing(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "file.md"), []byte("OUTSIDE-CANARY"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	answers := func(target string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".kitsoki"), 0o755); err != nil {
			t.Fatal(err)
		}
		prompt := filepath.Join(dir, "prompts", "p.md")
		var out []string
		for _, name := range []string{"prompts/p.md", prompt} {
			if err := os.MkdirAll(filepath.Dir(prompt), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(prompt); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.WriteFile(prompt, []byte("inside"), 0o644); err != nil {
				t.Fatal(err)
			}
			c := &checker{st: &story.Story{Dir: dir}}
			c.beforeStat = func(p string) {
				if p != prompt {
					return
				}
				if err := os.Remove(prompt); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				if err := os.Symlink(target, prompt); err != nil && !os.IsExist(err) {
					t.Fatal(err)
				}
			}
			f, ok := c.existingFile(name)
			out = append(out, fmt.Sprintf("%s: %s %v", name, f, ok))
		}
		return strings.ReplaceAll(strings.Join(out, "\n"), dir, "DIR")
	}
	file := answers(filepath.Join(outside, "file.md"))
	for _, target := range []string{"missing.md", "dir.md"} {
		if got := answers(filepath.Join(outside, target)); got != file {
			t.Errorf("a link out to %s:\n%s\na link out to a file:\n%s", target, got, file)
		}
	}
	if strings.Contains(file, "true") {
		t.Errorf("a link out is a file:\n%s", file)
	}
}

// TestAgentFileSwappedForALinkOutTellsNothing: agent-file asked Inside
// through the project root for a prompt_path that is missing, then stat'ed
// it by path to tell a directory apart: a link out swapped in between made
// it an error ("is a directory") when the target outside was a directory,
// a warning when a file or absent. The look is one stat through the root:
// a link out is left to prompt-root, whatever lies outside.
func TestAgentFileSwappedForALinkOutTellsNothing(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "file.md"), []byte("OUTSIDE-CANARY"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	findings := func(target string) string {
		dir := t.TempDir()
		for _, d := range []string{".kitsoki", "prompts"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		app := filepath.Join(dir, "app.yaml")
		src := "app: {id: p}\nhosts: [host.agent.ask]\nintents: {go: {}}\nroot: a\nstates:\n  a:\n    on:\n      go:\n        - effects:\n            - invoke: host.agent.ask\n              with: {prompt_path: prompts/p.md}\n          target: a\n"
		if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ := story.Load(app, story.Options{})
		if st == nil {
			t.Fatal("nil story")
		}
		prompt := filepath.Join(dir, "prompts", "p.md")
		rep := &yamlnode.Reporter{}
		c := &checker{st: st, rep: rep, src: &sources{read: st.Source}, files: map[string]fileAt{}, cc: map[compileKey]error{}}
		looks := 0
		c.beforeStat = func(p string) {
			if p != prompt {
				return
			}
			if looks++; looks == 2 { // after existing's look found nothing
				if err := os.Symlink(target, prompt); err != nil {
					t.Fatal(err)
				}
			}
		}
		checkAgentFiles(c)
		return strings.ReplaceAll(render(rep.Diags), dir, "DIR")
	}
	file := findings(filepath.Join(outside, "file.md"))
	for _, target := range []string{"missing.md", "dir.md"} {
		if got := findings(filepath.Join(outside, target)); got != file {
			t.Errorf("a link out to %s:\n%s\na link out to a file:\n%s", target, got, file)
		}
	}
}
