package lint

import (
	"slices"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEffectEmpty = &Rule{ID: "effect-empty", Severity: diag.Warning, LintOnly: true,
	Summary: "an effect key written empty is read as absent, as the existing engine does: set: {} or say: \"\" beside another kind lets that kind run, a lone say: \"\" says nothing, target: \"\" or ~ does nothing",
	Example: "- {set: {}, invoke: host.run, with: {cmd: \"true\"}}"}

// checkEffectEmpty warns where an effect key written empty changes what
// the entry does (conformance effect-kind-empty, effect-target-empty-keys):
// the kind is the first of set > increment > say > invoke that holds
// something, so an empty one written beside another no longer wins (the
// reference's "first match wins" reads as if it did); a lone say: "" adds
// no narration line; target: "" or ~ is no target anywhere.
func checkEffectEmpty(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		kinds := effectKinds(e)
		runs := slices.IndexFunc(kinds, func(k effectKind) bool { return k.has })
		for i, k := range kinds {
			// a value of another type is not empty: its type error says enough
			if k.has || !e.Blank.Has(k.name) || k.name == "invoke" {
				continue
			}
			switch {
			case runs > i:
				c.rep.WarnAt(e.PosOf(k.name), site.Place(), ruleEffectEmpty, "%s: %s: is empty, which is no kind: %s: runs (the kind is the first of set > increment > say > invoke that holds something, on both engines) — remove the empty %s:", site.String(), k.name, kinds[runs].name, k.name)
			case runs < 0 && k.name == "say":
				c.rep.WarnAt(e.PosOf("say"), site.Place(), ruleEffectEmpty, "%s: say: is empty, which is read as absent: it says nothing (no machine.say event, no narration line, on both engines) — remove it, or say something (a say: whose template renders to \"\" still adds an empty line)", site.String())
			}
		}
		if e.Target() == "" && e.Blank.Has("target") {
			c.rep.WarnAt(e.PosOf("target"), site.Place(), ruleEffectEmpty, "%s: target: is empty, which is no target: it does nothing (an on_complete: chain lands on the first entry whose target: names a state) — remove it, or name the state", site.String())
		}
	})
}
