package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHostRunFailText = &Rule{ID: "host-run-fail-text", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run fail_on_error: is text or a number, not a boolean: the call never fails on a non-zero exit in either engine",
	Example: `- {invoke: host.run, with: {cmd: make, fail_on_error: "true"}, on_error: broken}`}

// checkHostRunFailText warns about a host.run fail_on_error that is not a
// boolean: both engines fail a non-zero exit only on the boolean true
// (conformance host-run-fail-on-error-bool), so "true", "yes" or 1 make
// the call succeed whatever the exit code, and its on_error never runs.
// A whole template may render a bool; a value meaning false changes
// nothing, so neither is reported.
func checkHostRunFailText(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil {
			return
		}
		v, ok := e.With["fail_on_error"]
		if !ok || v == nil {
			return
		}
		if _, isBool := v.(bool); isBool {
			return
		}
		text := strings.TrimSpace(fmt.Sprint(v))
		if s, isStr := v.(string); isStr && strings.Contains(s, "{{") {
			return
		}
		switch strings.ToLower(text) {
		case "", "false", "0", "no", "off", "f":
			return
		}
		c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunFailText, "%s: host.run fail_on_error: %q is not a boolean; both engines fail a non-zero exit only on the boolean true, so this call never fails on one (its on_error does not run); write fail_on_error: true", site.String(), text)
	})
}
