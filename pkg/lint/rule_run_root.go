package lint

import (
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleRunRoot = &Rule{ID: "run-root", Severity: diag.Warning, LintOnly: true,
	Summary: "a guard or effect value reads run.id or run.turn, which are always \"\" and 0 (the existing engine has no run context)",
	Example: "- set: {t: \"{{ run.turn }}\"}"}

// runFieldRe matches a read of run.id or run.turn.
var runFieldRe = &lazyre.Regexp{Expr: `\brun\s*\.\s*(id|turn)\b`}

// checkRunRoot warns where a guard, an effect value or a say reads run.id
// or run.turn, always "" and 0 (conformance values-run-root).
func checkRunRoot(c *checker) {
	// where names the place; it is built only for a finding
	warn := func(p story.Pos, where func() string, src string) {
		if !strings.Contains(src, "run") {
			return
		}
		if m := runFieldRe.FindStringSubmatch(src); m != nil {
			val := `""`
			if m[1] == "turn" {
				val = "0"
			}
			c.rep.Warnf(p, ruleRunRoot, "%s: %q reads run.%s, which is always %s on both engines (the existing engine has no run context); keep a counter or id in a world key (increment:, or set it from a host call) instead", where(), src, m[1], val)
		}
	}
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		warn(t.WhenPos(), func() string { return "state \"" + s.Path + "\" intent \"" + intent + "\" when" }, t.When)
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template {
			return
		}
		eachValueString(e, func(p story.Pos, what, key, _, v string) {
			warn(p, func() string { return site.String() + ": " + what + " " + key }, v)
		})
		warn(e.PosOf("say"), func() string { return site.String() + ": say" }, e.Say)
		warn(e.Pos, func() string { return site.String() + ": when" }, e.When)
	})
}
