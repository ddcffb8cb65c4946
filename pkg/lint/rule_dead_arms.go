package lint

import (
	"kitsoki/pkg/diag"
)

var ruleDeadArm = &Rule{ID: "dead-arm", Severity: diag.Warning, LintOnly: true,
	Summary: "a transition arm that can never be taken (it follows a default: true arm of the same intent) or a when: that is never read (on a default: true arm)",
	Example: "on: {go: [{default: true, target: a}, {target: b, when: \"world.n > 1\"}]}"}

// checkDeadArms warns at the arms that follow a default: true arm, and at
// its when:: a default arm is taken whatever its when: says (conformance
// default-arm-taken).
func checkDeadArms(c *checker) {
	for _, s := range c.states() {
		for _, on := range s.On {
			dflt := -1
			for i, t := range on.Arms {
				if t == nil {
					continue
				}
				if dflt >= 0 {
					c.rep.WarnAt(t.Pos, diag.ArcPlace(s.Path, on.Intent), ruleDeadArm, "state %q intent %q transition[%d]: never taken: transition[%d] before it has default: true, which is taken whenever it is reached; move this arm above it, or drop it", s.Path, on.Intent, i, dflt)
					continue
				}
				if t.Default() {
					if t.When != "" {
						c.rep.WarnAt(t.WhenPos(), diag.ArcPlace(s.Path, on.Intent), ruleDeadArm, "state %q intent %q transition[%d]: when: is never read on a default: true arm (the arm is taken whatever it says); drop default: true to guard the arm, or drop the when:", s.Path, on.Intent, i)
					}
					dflt = i
				}
			}
		}
	}
}
