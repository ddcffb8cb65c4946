package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// swapTo replaces p, whatever is there, with a symbolic link to target.
func swapTo(t *testing.T, p, target string) {
	t.Helper()
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// TestExistingFileSwappedForALinkOutTellsNothing: existingFile (behind
// agent-file, prompt-root, schema, imports' overrides.prompts and the
// decider's prompt) asked Inside through the project root, then stat'ed the
// path by path: a prompt swapped for a link out in between was a file when
// the target outside was one, and missing when it was a directory or
// absent, so the findings told which paths exist outside. It is one look
// through the root now: a link out is no file whatever lies outside.
func TestExistingFileSwappedForALinkOutTellsNothing(t *testing.T) {
	outside, targets := storytest.LinkOutTargets(t)
	got := storytest.SameForEveryTarget(t, outside, targets, func(target string) string {
		dir := storytest.TempTree(t, map[string]string{".kitsoki/.keep": ""})
		prompt := filepath.Join(dir, "prompts", "p.md")
		var out []string
		for _, name := range []string{"prompts/p.md", prompt} {
			storytest.WriteTree(t, dir, map[string]string{"prompts/p.md": "inside"})
			c := &checker{st: &story.Story{Dir: dir}}
			c.beforeStat = func(p string) {
				if p == prompt {
					swapTo(t, prompt, target)
				}
			}
			f, ok := c.existingFile(name)
			os.Remove(prompt)
			out = append(out, fmt.Sprintf("%s: %s %v", name, f, ok))
		}
		return strings.ReplaceAll(strings.Join(out, "\n"), dir, "DIR")
	})
	if strings.Contains(got, "true") {
		t.Errorf("a link out is a file:\n%s", got)
	}
}

// TestAgentFileSwappedForALinkOutTellsNothing: agent-file asked Inside
// through the project root for a prompt_path that is missing, then stat'ed
// it by path to tell a directory apart: a link out swapped in between made
// it an error ("is a directory") when the target outside was a directory,
// a warning when a file or absent. The look is one stat through the root:
// a link out is left to prompt-root, whatever lies outside.
func TestAgentFileSwappedForALinkOutTellsNothing(t *testing.T) {
	outside, targets := storytest.LinkOutTargets(t)
	storytest.SameForEveryTarget(t, outside, targets, func(target string) string {
		dir := storytest.TempTree(t, map[string]string{
			".kitsoki/.keep": "",
			"prompts/.keep":  "",
			"app.yaml":       "app: {id: p}\nhosts: [host.agent.ask]\nintents: {go: {}}\nroot: a\nstates:\n  a:\n    on:\n      go:\n        - effects:\n            - invoke: host.agent.ask\n              with: {prompt_path: prompts/p.md}\n          target: a\n",
		})
		st, _ := story.Load(filepath.Join(dir, "app.yaml"), story.Options{})
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
				swapTo(t, prompt, target)
			}
		}
		checkAgentFiles(c)
		return strings.ReplaceAll(render(rep.Diags), dir, "DIR")
	})
}
