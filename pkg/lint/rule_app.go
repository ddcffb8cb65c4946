package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleApp = &Rule{ID: "app", Severity: diag.Error, Summary: "app.id is required; app.context and app.context_path are exclusive",
	Example: "app: {name: demo}"}

// checkApp: app.id is required; app.context and app.context_path are
// mutually exclusive (reference §3.2).
func checkApp(c *checker) {
	st := c.st
	p := st.App.Pos
	if p.File == "" {
		p = story.Pos{File: st.File, Line: 1, Col: 1}
	}
	if st.App.ID == "" && !st.Imported() {
		c.rep.Errf(p, ruleApp, "app.id is required")
	}
	if st.App.Context != "" && st.App.ContextPath != "" {
		c.rep.Errf(p, ruleApp, "app.context and app.context_path are mutually exclusive; set only one")
	}
}
