package lint

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleGrammarIgnored = &Rule{ID: "grammar-ignored", Severity: diag.Warning, LintOnly: true,
	Summary: "a decide schema of a builtin.local_llm grammar: true alias uses a keyword llama.cpp's grammar accepts but does not enforce (bounds on a number, a uri or email format); reported at the keyword in the schema file, and silenced by # kitsoki:ignore grammar-ignored on the story line of with.schema (JSON holds no comment)",
	Example: "\"n\": {\"type\": \"number\", \"minimum\": 1}"}

// grammarIgnoredFix is the fix each finding names, by keyword.
var grammarIgnoredFix = map[string]string{
	"minimum":          `kitsoki validates the answer after the call and fails it as schema_invalid; use "type": "integer" where whole numbers do, or drop grammar: true`,
	"exclusiveMinimum": `kitsoki validates the answer after the call and fails it as schema_invalid; use "type": "integer" where whole numbers do, or drop grammar: true`,
	"maximum":          `kitsoki validates the answer after the call and fails it as schema_invalid; use "type": "integer" where whole numbers do, or drop grammar: true`,
	"exclusiveMaximum": `kitsoki validates the answer after the call and fails it as schema_invalid; use "type": "integer" where whole numbers do, or drop grammar: true`,
	"format":           `kitsoki checks a format after the call only under a draft-07 or older "$schema"; give the string an anchored "pattern" the grammar enforces, or drop grammar: true`,
}

// checkGrammarIgnored: a schema inside the grammar subset is sent as
// llama.cpp's grammar, which skips some keywords silently (reference anchors
// §7); each is reported at the keyword in the schema file, or at with.schema
// when the keyword comes from another file through $ref. A finding in the
// schema file is silenced by a # kitsoki:ignore grammar-ignored on the
// story line of with.schema (or alone above it), as JSON has no comments.
func checkGrammarIgnored(c *checker) {
	c.eachGrammarSend(func(g grammarSend) {
		if len(g.subset) > 0 {
			return // not sent as a grammar; the grammar rule reports it
		}
		found := g.ignored
		if len(found) == 0 {
			return
		}
		offs := g.offs
		use := g.e.WithPos("schema")
		for _, f := range found {
			pos := use
			if off, ok := offs[f.At]; ok {
				line, col := lineCol(string(g.file), off)
				pos = story.Pos{File: c.displayPath(g.abs), Line: line, Col: col}
			}
			c.rep.Warnf(pos, ruleGrammarIgnored, "%s: agent %q is builtin.local_llm with grammar: true and its decide schema %q has %s; fix: %s",
				g.site.String(), g.e.Agent(), g.path, f.String(), grammarIgnoredFix[f.Keyword])
			if pos != use {
				// JSON holds no comment: the story line naming the schema
				// takes the # kitsoki:ignore
				d := &c.rep.Diags[len(c.rep.Diags)-1]
				d.ViaFile, d.ViaLine = use.File, use.Line
			}
		}
	})
}
