package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

var ruleHostRunInts = &Rule{ID: "host-run-int", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run timeout: or args element, a host.starlark.run input or a host.video.frame t_ms: is a YAML whole number that is not negative (written there, or a {{ world.x }} whose default is one), which the handler reads as uint64 and refuses, as the existing engine does (the call fails); so is a host.run args: that is not a list",
	Example: "- {invoke: host.run, with: {cmd: sleep, args: [1], timeout: 30}}"}

// checkHostRunInts warns about YAML whole numbers that are not negative
// in a host.run call's timeout and args, which the existing engine's
// decoder reads as uint64 and its host.run refuses, and so do kitsoki's
// (docs/compat/hosts.md, conformance run-int-uint64;
// a negative one is an int64, which it takes), written there or read
// whole from a world key whose default is one (`{{ world.n }}`; probed
// hunt49, also in an imported child and an on_complete chain).
func checkHostRunInts(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke == "host.starlark.run" && e.With != nil {
			c.starlarkUintInputs(e, site)
			return
		}
		if e.Invoke == "host.video.frame" && e.With != nil {
			c.videoFrameUint(e, site)
			return
		}
		if e.Invoke != "host.run" || e.With == nil {
			return
		}
		c.hostRunArgsList(e, site)
		if n, ref, ok := c.uintValue(e.With["timeout"], site.OnComplete); ok {
			c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunInts, "%s: host.run timeout: %s is a YAML integer, which host.run refuses as the existing engine does (%q): the call fails; write timeout: %s for %s seconds", site.String(), ref, host.UintTimeoutRefusal, timeoutFix(e.With["timeout"], n), n)
		}
		args, _ := e.With["args"].([]any)
		for i, a := range args {
			if n, ref, ok := c.uintValue(a, site.OnComplete); ok {
				c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleHostRunInts, "%s: host.run args[%d]: %s is a YAML integer, which host.run refuses as the existing engine does (\"args[%d]: %s\"): the call fails; %s to pass \"%s\"", site.String(), i, ref, i, host.UintArgRefusal, argFix(a, n), n)
			}
		}
	})
}

// hostRunArgsList warns about a host.run args: written as something other
// than a list, which both engines refuse ("args must be a list, got
// string"; conformance host-run-type-texts a1-a4, a6, a7).
func (c *checker) hostRunArgsList(e *story.Effect, site effSite) {
	v, ok := e.With["args"]
	if !ok || v == nil {
		return
	}
	if _, list := v.([]any); list {
		return
	}
	if s, str := v.(string); str && story.IsTemplated(s) {
		return
	}
	text := fmt.Sprint(v)
	if b, err := json.Marshal(v); err == nil {
		text = string(b) // an object or list as written, not Go's map[...] syntax
	}
	c.rep.WarnAt(e.WithPos("args"), site.Place(), ruleHostRunInts, "%s: host.run args: %s (%s) is not a list, which host.run refuses as the existing engine does (\"args must be a list\"): the call fails; write args as a list of strings (args: [\"…\"])", site.String(), text, jsonvalue.Kind(v))
}

// videoFrameUint warns about a host.video.frame t_ms: that reaches the
// handler as the existing engine's uint64, which it refuses ("t_ms must
// be a number, got uint64"; conformance video-frame-args m1, m4).
func (c *checker) videoFrameUint(e *story.Effect, site effSite) {
	if n, ref, ok := c.uintValue(e.With["t_ms"], site.OnComplete); ok {
		c.rep.WarnAt(e.WithPos("t_ms"), site.Place(), ruleHostRunInts, "%s: host.video.frame t_ms: %s is a YAML integer, which host.video.frame refuses as the existing engine does (\"t_ms must be a number, got uint64\"): the call fails; write t_ms: \"%s\" (a string holding the number)", site.String(), ref, n)
	}
}

// starlarkUintInputs warns about the host.starlark.run inputs that read a
// world key whose default is a YAML whole number, which reach the script
// as the existing engine's uint64 (conformance star-uint64: wn, twn, swn);
// a literal one is checkStarlarkInputs', beside the sidecar's type check.
func (c *checker) starlarkUintInputs(e *story.Effect, site effSite) {
	in, _ := e.With["inputs"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(in)) {
		if s, ok := in[name].(string); ok && story.IsTemplated(s) {
			c.starlarkUintInput(e, site, name)
		}
	}
}

// starlarkUintInput warns when the input name reaches the script as the
// existing engine's uint64, which it cannot convert to a Starlark value
// (a literal, one inside a list or map, a {{ world.x }} whose default is
// one).
func (c *checker) starlarkUintInput(e *story.Effect, site effSite, name string) {
	v := e.With["inputs"].(map[string]any)[name]
	n, ref, ok := c.uintValue(v, site.OnComplete)
	if !ok && !site.OnComplete {
		n, ok = nestedUint(v)
		ref = n + " (inside the input)"
	}
	if ok {
		c.rep.WarnAt(e.WithPos("inputs."+name), site.Place(), ruleHostRunInts, "%s: host.starlark.run input %q: %s is a YAML integer, which host.starlark.run refuses as the existing engine does (\"cannot convert Go value of type uint64 to Starlark\", or a typed input's \"got uint64\"): the call fails; %s", site.String(), name, ref, starFix(v, n))
	}
}

// nestedUint finds a YAML whole number that is not negative inside a list
// or map input, and its text.
func nestedUint(v any) (string, bool) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if n, ok := yamlUint(e); ok {
				return n, true
			}
			if n, ok := nestedUint(e); ok {
				return n, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if n, ok := yamlUint(x[k]); ok {
				return n, true
			}
			if n, ok := nestedUint(x[k]); ok {
				return n, true
			}
		}
	}
	return "", false
}

// starFix is an input spelling both engines run: a computed number (an
// int, star-uint64's calc and tcalc) or a float.
func starFix(v any, n string) string {
	if s, ok := v.(string); ok {
		m := aliasWorldRefRe.FindStringSubmatch(strings.TrimSpace(s))
		return fmt.Sprintf("write \"{{ world.%s + 0 }}\"", m[1])
	}
	return fmt.Sprintf("compute it in a template (\"{{ world.k + 0 }}\") or write a float (%s.0)", n)
}

// uintValue reports whether v reaches host.run as the existing engine's
// uint64: a YAML whole number that is not negative (but in an on_complete
// chain, which reaches the job as JSON, its numbers float64s), or a
// template that is exactly one world key whose default is one. ref says
// which.
func (c *checker) uintValue(v any, onComplete bool) (n, ref string, ok bool) {
	if n, ok := yamlUint(v); ok {
		return n, n, !onComplete
	}
	s, _ := v.(string)
	m := aliasWorldRefRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", "", false
	}
	wv := c.st.Var(m[1])
	if wv == nil {
		return "", "", false
	}
	if n, ok := yamlUint(wv.Default); ok {
		return n, fmt.Sprintf("%s (world.%s, while it holds its default %s, or another whole number written in YAML)", strings.TrimSpace(s), m[1], n), true
	}
	return "", "", false
}

// timeoutFix is a timeout spelling both engines run.
func timeoutFix(v any, n string) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", strings.TrimSpace(s)+"s")
	}
	return fmt.Sprintf("\"%ss\"", n)
}

// argFix is an args element spelling both engines run.
func argFix(v any, n string) string {
	if s, ok := v.(string); ok {
		m := aliasWorldRefRe.FindStringSubmatch(strings.TrimSpace(s))
		return fmt.Sprintf("write \"{{ string(world.%s) }}\"", m[1])
	}
	return fmt.Sprintf("quote it (\"%s\")", n)
}

// yamlUint reports whether v is a whole number decoded from YAML that is
// not negative, and its text.
func yamlUint(v any) (string, bool) {
	switch n := v.(type) {
	case int:
		return fmt.Sprint(n), n >= 0
	case int64:
		return fmt.Sprint(n), n >= 0
	case uint64, uint:
		return fmt.Sprint(n), true
	case *big.Int:
		return n.String(), n.Sign() >= 0
	}
	return "", false
}
