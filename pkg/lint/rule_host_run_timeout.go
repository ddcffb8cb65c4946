package lint

import (
	"math"
	"strconv"
	"strings"
	"time"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHostRunTimeout = &Rule{ID: "host-run-timeout", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run timeout: string that is neither a Go duration nor a number of seconds (\"2d\" is 2 seconds there, not 2 days as in timeout.after:), or a blank string or a NaN, infinite, sub-nanosecond or over-292-year number, which runs the command with no timeout",
	Example: "- {invoke: host.run, with: {cmd: make, timeout: 2d}}"}

// checkHostRunTimeout warns about a host.run timeout that both engines
// read other than as written (pkg/host durationArg, conformance
// host-run-timeout-forms): the number a string starts with is taken as
// seconds and the rest ignored, and a NaN, infinite or sub-nanosecond
// number means no timeout at all, as does a blank string. A templated value is read at run time
// and not checked.
func checkHostRunTimeout(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil {
			return
		}
		switch t := e.With["timeout"].(type) {
		case string:
			s := strings.TrimSpace(t)
			if strings.Contains(s, "{{") || strings.Contains(s, "{%") {
				return
			}
			if s == "" {
				c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunTimeout, "%s: host.run timeout: a blank string runs the command with no timeout in both engines (conformance host-run-timeout-blank); leave timeout: out for none, or write a Go duration such as \"90s\"", site.String())
				return
			}
			if _, err := time.ParseDuration(s); err == nil {
				return
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunTimeout, "%s: host.run timeout: %q is neither a Go duration nor a number of seconds; the existing engine reads only the number it starts with as seconds (\"2d\" is 2 seconds, not 2 days as in timeout.after:) and fails the call when it starts with none, and kitsoki does the same; write a Go duration such as \"48h\" or \"90s\"", site.String(), s)
				return
			}
			warnNoTimeout(c, e, site, f, strconv.Quote(s))
		case float64:
			warnNoTimeout(c, e, site, t, strconv.FormatFloat(t, 'g', -1, 64))
		}
	})
}

// warnNoTimeout warns when f seconds means no timeout in both engines: NaN,
// more seconds than a time.Duration holds (+Inf included), or a positive
// number under a nanosecond. Zero and negative numbers fail the call.
func warnNoTimeout(c *checker, e *story.Effect, site effSite, f float64, shown string) {
	maxSeconds := float64(math.MaxInt64 / int64(time.Second))
	if !math.IsNaN(f) && f <= maxSeconds && (f <= 0 || f*float64(time.Second) >= 1) {
		return
	}
	c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunTimeout, "%s: host.run timeout: %s runs the command with no timeout in both engines (a NaN, infinite, sub-nanosecond or over-292-year number of seconds); write a Go duration such as \"90s\"", site.String(), shown)
}
