package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var rulePromptRoot = &Rule{ID: "prompt-root", Severity: diag.Error, LintOnly: true,
	Summary: "prompt:/prompt_path: files stay inside the story's roots (story, imported children, prompt overlays); the call fails at run time otherwise",
	Example: "with: {prompt_path: ../../etc/passwd}"}

// checkPromptRoots: a prompt file of an agent invoke lies inside the
// story's PromptRoots, as the engine requires at run time.
func checkPromptRoots(c *checker) {
	roots := c.st.PromptRoots()
	c.eachFileRef(func(e *story.Effect, site effSite, r fileRef) {
		if !r.isFile || r.schema {
			return
		}
		f, _ := c.existing(r.path) // a missing one is agent-file's
		if !story.Confined(f, roots) {
			c.rep.ErrAt(e.PosOf("with"), site.Place(), rulePromptRoot, "%s: with.%s %q resolves to %s, outside the story's roots (%s): prompt files must live inside the story (or a declared prompts overlay/shared directory); move the file there", site.String(), r.key, r.path, f, strings.Join(roots, ", "))
		}
	})
}
