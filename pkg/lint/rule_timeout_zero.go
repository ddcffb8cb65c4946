package lint

import (
	"kitsoki/internal/duration"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleTimeoutZero = &Rule{ID: "timeout-zero", Severity: diag.Warning, LintOnly: true,
	Summary: "a state's timeout.after that is a duration of zero (0, 0s, -0d, or less than a nanosecond such as 0.5ns or 1e-20d): both engines load it and arm no timer, so the timeout never fires; write a positive duration, or drop the timeout",
	Example: "timeout: {after: 0s, target: next}"}

// checkTimeoutZero: a timeout.after that parses to zero arms nothing on
// either engine (conformance timeout-after-zero). Templated, negative and
// unparsable ones are the state rule's.
func checkTimeoutZero(c *checker) {
	for _, s := range c.states() {
		t := s.Timeout()
		if t == nil || t.After == "" || story.TemplatedAt(story.FieldTimeoutAfter, t.After) {
			continue
		}
		if d, err := duration.Parse(t.After); err == nil && d == 0 {
			c.rep.WarnAt(t.Pos, diag.StatePlace(s.Path), ruleTimeoutZero, "state %q: timeout.after %q is zero (less than a nanosecond counts as zero): the existing engine arms no timer for it, and neither does kitsoki, so the timeout never fires; write a positive duration such as 30s, or drop the timeout:", s.Path, t.After)
		}
	}
}
