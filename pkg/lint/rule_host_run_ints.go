package lint

import (
	"fmt"
	"math/big"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHostRunInts = &Rule{ID: "host-run-int", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run timeout: or args element is a YAML integer, which the existing engine refuses (the call fails there)",
	Example: "- {invoke: host.run, with: {cmd: sleep, args: [1], timeout: 30}}"}

// checkHostRunInts warns about YAML integers in a host.run call's
// timeout and args, which the existing engine refuses
// (docs/compat/hosts.md; pkg/host/testdata/conformance/run-int-literals).
func checkHostRunInts(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil {
			return
		}
		if n, ok := yamlInt(e.With["timeout"]); ok {
			c.rep.Warnf(e.PosOf("with"), ruleHostRunInts,
				"%s: host.run timeout: %s is a YAML integer; the existing engine refuses it (\"timeout must be a number or duration string, got uint64\") and the call fails there, while kitsoki waits %s seconds; write timeout: \"%ss\" so both engines run the call",
				site.String(), n, n, n)
		}
		args, _ := e.With["args"].([]any)
		for i, a := range args {
			if n, ok := yamlInt(a); ok {
				c.rep.Warnf(e.PosOf("with"), ruleHostRunInts,
					"%s: host.run args[%d]: %s is a YAML integer; the existing engine refuses it (\"args[%d]: unsupported type uint64\") and the call fails there, while kitsoki passes \"%s\"; quote it (\"%s\") so both engines run the call",
					site.String(), i, n, i, n, n)
			}
		}
	})
}

// yamlInt reports whether v is an integer decoded from YAML, and its text.
func yamlInt(v any) (string, bool) {
	switch n := v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(n), true
	case *big.Int:
		return n.String(), true
	}
	return "", false
}
