package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var rulePromptRoot = &Rule{ID: "prompt-root", Severity: diag.Error, LintOnly: true,
	Summary: "prompt:/prompt_path: files stay inside the story's roots (story, imported children, prompt overlays); the call fails at run time otherwise",
	Example: "with: {prompt_path: ../../etc/passwd}"}

// checkPromptRoots: a prompt:/prompt_path: file of a host.agent.* invoke
// lies inside the story's roots (PromptRoots: the story directory, its
// prompt overlay and shared directories, its imported children), as
// schemas are confined to schemas/. An absolute path, a "../" that leaves
// the roots or a symlink pointing outside is an error: the run would send
// the file to the plugin and copy it into the trace. The engine refuses
// the same paths at run time.
func checkPromptRoots(c *checker) {
	roots := c.st.PromptRoots()
	c.eachFileRef(func(e *story.Effect, site effSite, r fileRef) {
		if !r.isFile || r.schema {
			return
		}
		// A missing file inside the roots is agent-file's to report.
		f, _ := c.existing(r.path)
		if !story.Confined(f, roots) {
			c.rep.Errf(e.PosOf("with"), rulePromptRoot, "%s: with.%s %q resolves to %s, outside the story's roots (%s): prompt files must live inside the story (or a declared prompts overlay/shared directory); move the file there",
				site.String(), r.key, r.path, f, strings.Join(roots, ", "))
		}
	})
}
