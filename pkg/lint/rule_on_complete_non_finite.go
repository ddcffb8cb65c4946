package lint

import (
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleOnCompleteNonFinite = &Rule{ID: "on-complete-non-finite", Severity: diag.Warning, LintOnly: true,
	Summary: "a NaN or infinite literal (.nan, .inf, -.inf) in a background job's on_complete chain: both engines send the chain as JSON when they submit the job, which cannot hold it, so the submission fails (world.last_error) and the job never runs",
	Example: "on_complete: [{set: {ratio: .nan}}]"}

// checkOnCompleteNonFinite warns at an on_complete entry holding such a
// literal (conformance yaml-non-finite: upstream's submission fails with
// "dispatchBackground: marshal on_complete: json: unsupported value: NaN",
// and kitsoki's the same).
func checkOnCompleteNonFinite(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !site.OnComplete {
			return
		}
		for _, v := range e.Literals() {
			if jsonvalue.HasNonFinite(v) {
				c.rep.WarnAt(e.Pos, site.Place(), ruleOnCompleteNonFinite, "%s: a NaN or infinite number in an on_complete chain fails the job's submission in both engines (the chain goes out as JSON, which cannot hold it): world.last_error is set and the job never runs; write a finite number, or compute the value in a {{ }} template", site.String())
				return
			}
		}
	})
}
