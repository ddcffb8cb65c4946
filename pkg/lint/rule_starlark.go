package lint

import (
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleStarlark = &Rule{ID: "starlark", Severity: diag.Error, Summary: "host.starlark.run scripts exist inside the story with their sidecar",
	Example: "- {invoke: host.starlark.run, with: {script: missing.star}}"}

// checkStarlark: host.starlark.run needs with.script inside the story
// directory, and the script needs its sidecar <script>.yaml (§9.6).
func checkStarlark(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.starlark.run" || site.Template {
			return
		}
		p := e.WithPos("script")
		script := withString(e, "script")
		if script == "" {
			c.rep.Errf(p, ruleStarlark, "%s: host.starlark.run requires a non-empty with.script", site.String())
			return
		}
		if story.IsTemplated(script) {
			return
		}
		abs := c.storyPath(script)
		if rel, err := filepath.Rel(c.st.Dir, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			c.rep.Errf(p, ruleStarlark, "%s: host.starlark.run script %q resolves outside the app root", site.String(), script)
			return
		}
		if _, err := os.Stat(abs); err != nil {
			c.rep.Errf(p, ruleStarlark, "%s: host.starlark.run script %q not found (resolved to %q)", site.String(), script, abs)
			return
		}
		if _, err := os.Stat(abs + ".yaml"); err != nil {
			c.rep.Errf(p, ruleStarlark, "%s: host.starlark.run script %q has no sidecar (expected %q): %s", site.String(), script, abs+".yaml", safefile.ErrText(err))
		}
	})
}
