package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEffectKinds = &Rule{ID: "effect-kinds", Severity: diag.Warning, LintOnly: true,
	Summary: "an effect carries more than one of set/increment/say/invoke (only the first runs)",
	Example: "- {set: {a: 1}, say: hi}"}

// checkEffectKinds warns when one effect entry carries more than one of
// set/increment/say/invoke: the engine applies only the first (§5.2). An
// empty one (set: {}, increment: {}, say: "") is no kind and is not counted:
// the next one written runs.
func checkEffectKinds(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		var kinds []string
		for _, k := range effectKinds(e) {
			if k.has {
				kinds = append(kinds, k.name)
			}
		}
		if len(kinds) > 1 {
			c.rep.WarnAt(e.Pos, site.Place(), ruleEffectKinds, "%s: effect carries %s; only %s: runs (the engine applies the first of set > increment > say > invoke) — split it into separate effects", site.String(), strings.Join(kinds, ", "), kinds[0])
		}
	})
}

// effectKind is one of an effect's kinds and whether the effect holds
// something for it (a key written empty holds nothing).
type effectKind struct {
	name string
	has  bool
}

// effectKinds lists e's kinds in the order that picks the one that runs:
// set > increment > say > invoke.
func effectKinds(e *story.Effect) []effectKind {
	return []effectKind{{"set", len(e.Set) > 0}, {"increment", len(e.Increment()) > 0}, {"say", e.Say != ""}, {"invoke", e.Invoke != ""}}
}
