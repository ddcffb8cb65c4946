package lint

import (
	"errors"
	"path/filepath"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

var ruleSchema = &Rule{ID: "schema", Severity: diag.Warning, LintOnly: true,
	Summary: "agent schemas compile and $refs stay inside schemas/",
	Example: "with: {schema: schemas/bad.json}   # {\"type\": 3}"}

// checkSchemas: every schema an agent invoke or decider: names compiles,
// its $refs inside the story's schemas/ directory.
func checkSchemas(c *checker) {
	// one session, made for the first schema named
	var comp *schema.Compiler
	var ses *schema.Session
	defer func() {
		if ses != nil {
			ses.Close()
		}
	}()
	done := map[string]bool{}
	try := func(p story.Pos, at diag.Place, where, path string) {
		if path == "" || story.IsTemplated(path) || done[path] {
			return
		}
		done[path] = true
		if _, ok := c.existing(path); !ok && c.st.FileRoot().Inside(c.storyPath(path)) {
			return // reported by agent-file; one outside, whether it is there or not, by the compile's refusal
		}
		if comp == nil {
			comp = schema.NewStoryCompiler(c.st.Dir, c.st.Patterns())
			ses = comp.Session()
		}
		if _, err := ses.Compile(filepath.Clean(path)); err != nil {
			// upstream loads the story, but kitsoki reads no file outside
			sev := diag.Warning
			if errors.Is(err, schema.ErrOutsideRoot) {
				sev = diag.Error
			}
			c.rep.AddAt(p, at, sev, ruleSchema, "%s: %s", where, err.Error())
		}
	}
	c.eachFileRef(func(e *story.Effect, site effSite, r fileRef) {
		if r.schema {
			try(e.WithPos(r.key), site.Place(), site.String()+": with."+r.key, r.path)
		}
	})
	if d := c.st.Decider; d != nil {
		try(d.Pos, diag.Place{}, "decider.schema", d.Schema)
	}
}
