package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

var ruleHostLocalTarget = &Rule{ID: "host-local-target", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.local target: written as a go flag that acts outside the tests (-toolexec, -exec, -o, -coverprofile, -ldflags, ...): the existing engine passes it to go as it is, kitsoki refuses the call with a domain error (docs/compat/hosts.md)",
	Example: "- {invoke: host.local, with: {op: run_tests, target: -toolexec=./wrap.sh}}"}

// checkHostLocalTarget warns at a literal host.local target kitsoki's
// handler refuses ([host.SafeGoTarget]): a go option that may run a
// program or write a file, which upstream hands to go.
func checkHostLocalTarget(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != host.HandlerLocalCI || e.With == nil {
			return
		}
		t, ok := e.With["target"].(string)
		if !ok || strings.Contains(t, "{{") || host.SafeGoTarget(t) {
			return
		}
		c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostLocalTarget, "%s: host.local target %q is a go option that acts outside the tests (it may run a program or write a file): the existing engine passes it to go, kitsoki refuses the call (a domain error, on_error runs); name a package pattern, or one of go test's test-choosing flags such as -run=NAME or -count=1", site.String(), t)
	})
}
