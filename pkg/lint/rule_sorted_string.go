package lint

import (
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleSortedString = &Rule{ID: "sorted-string", Severity: diag.Warning, LintOnly: true,
	Summary: "a pongo2 {% for %} loop with sorted over a string (a world key declared type: string or with a string default, or a quoted literal): pongo2 cannot sort a string, so the render fails (upstream panics and aborts the whole test run)",
	Example: "say: \"{% for c in world.name sorted %}{{ c }}{% endfor %}\"   # name: {type: string}"}

// sortedForRe is a pongo2 for tag over world.K, world["K"] or a quoted
// literal (group 1; K in group 2 or 3) followed by its modifiers (group
// 4: sorted, reversed, in either order).
var sortedForRe = &lazyre.Regexp{Expr: `\{%-?\s*for\s+\w+(?:\s*,\s*\w+)?\s+in\s+(world\.(\w+)|world\[["'](\w+)["']\]|"[^"]*"|'[^']*')((?:\s+(?:sorted|reversed))+)\s*-?%\}`}

// checkSortedString warns at a {% for %} loop that sorts a string: both
// engines render it with pongo2, whose for tag sorts lists and maps only
// (probed with the existing engine: world.s declared type: string, an
// untyped key with a string default, an empty string and a literal all
// panic "TODO: handle sort for type string"; ours fails the fixture,
// docs/compat/hardening.md). The texts are those rule world-key reads.
func checkSortedString(c *checker) {
	for _, t := range c.worldKeys().sources {
		sortedStrings(c, t.src, t.p, t.file, t.where)
	}
}

// sortedStrings warns at each {% for %} loop of src that sorts a string.
func sortedStrings(c *checker, src string, p story.Pos, file bool, where func() string) {
	if !strings.Contains(src, "sorted") {
		return
	}
	for _, m := range sortedForRe.Get().FindAllStringSubmatchIndex(src, -1) {
		if !strings.Contains(src[m[8]:m[9]], "sorted") {
			continue
		}
		what, why := src[m[2]:m[3]], "a quoted literal"
		if m[4] >= 0 || m[6] >= 0 {
			key := src[max(m[4], m[6]):max(m[5], m[7])]
			if why = stringWorldVar(c.st.Var(key)); why == "" {
				continue
			}
		}
		line, col := lineCol(src, m[2])
		pos := story.Pos{File: p.File, Line: line, Col: col}
		if !file {
			pos = c.src.valuePos(p, src, line, col)
		}
		c.rep.Warnf(pos, ruleSortedString, "%s: {%% for %%} loops over %s sorted, but %s is a string (%s): pongo2 sorts lists and maps only, so the render fails (upstream panics, aborting the whole test run); drop sorted, or loop over a list",
			where(), what, what, why)
	}
}

// stringWorldVar says why v holds a string ("" when it may not): it is
// declared type: string, or untyped with a string default.
func stringWorldVar(v *story.WorldVar) string {
	switch {
	case v == nil:
		return ""
	case v.Kind() == "string":
		return "declared type: string"
	case strings.TrimSpace(v.Type) == "" && len(v.Values) == 0 && v.HasDefault:
		if _, ok := v.Default.(string); ok {
			return "its default is a string and it has no type"
		}
	}
	return ""
}
