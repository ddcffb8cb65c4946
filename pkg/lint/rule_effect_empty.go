package lint

import (
	"strings"

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
		runs := ""
		for _, k := range kinds {
			if k.has {
				runs = k.name
				break
			}
		}
		for _, k := range kinds {
			if k.has || !e.Written.Has(k.name) || k.name == "invoke" || !c.writtenEmpty(e.PosOf(k.name), k.name != "say") {
				continue
			}
			switch {
			case runs != "" && before(k.name, runs):
				c.rep.WarnAt(e.PosOf(k.name), site.Place(), ruleEffectEmpty, "%s: %s: is empty, which is no kind: %s: runs (the kind is the first of set > increment > say > invoke that holds something, on both engines) — remove the empty %s:", site.String(), k.name, runs, k.name)
			case runs == "" && k.name == "say":
				c.rep.WarnAt(e.PosOf("say"), site.Place(), ruleEffectEmpty, "%s: say: is empty, which is read as absent: it says nothing (no machine.say event, no narration line, on both engines) — remove it, or say something (a say: whose template renders to \"\" still adds an empty line)", site.String())
			}
		}
		if e.Target() == "" && e.Written.Has("target") && c.writtenEmpty(e.PosOf("target"), false) {
			c.rep.WarnAt(e.PosOf("target"), site.Place(), ruleEffectEmpty, "%s: target: is empty, which is no target: it does nothing (an on_complete: chain lands on the first entry whose target: names a state) — remove it, or name the state", site.String())
		}
	})
}

// before reports whether kind a comes before kind b in set > increment >
// say > invoke.
func before(a, b string) bool {
	order := map[string]int{"set": 0, "increment": 1, "say": 2, "invoke": 3}
	return order[a] < order[b]
}

// writtenEmpty reports whether the value written at p reads as an empty
// one of its key's type (a mapping for set:/increment:, a string for
// say:/target:) rather than a value of another type, whose type error the
// loader reports already: {} or ~ or null or nothing, "" or ” or an empty
// block scalar.
func (c *checker) writtenEmpty(p story.Pos, mapping bool) bool {
	lines, ok := c.src.sourceLines(p.File)
	if !ok || p.Line < 1 || p.Line > len(lines) {
		return true
	}
	line := []rune(lines[p.Line-1])
	if p.Col < 1 || p.Col > len(line)+1 {
		return true
	}
	rest := strings.TrimSpace(string(line[p.Col-1:]))
	switch {
	case rest == "" || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, "}") || strings.HasPrefix(rest, "~"):
		return true
	case strings.HasPrefix(rest, "null") || strings.HasPrefix(rest, "Null") || strings.HasPrefix(rest, "NULL"):
		return true
	case strings.HasPrefix(rest, "{"):
		return mapping
	case strings.HasPrefix(rest, "\"") || strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, ">"):
		return !mapping
	}
	return false
}
