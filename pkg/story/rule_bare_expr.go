package story

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// bareExprRe matches a string that reads as an expression over a template
// root (world.x, slots.y ?? 'z', args.n + 1) but has no {{ }}.
// It is compiled on first use, not at every start-up.
var bareExprRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^!?\(?(world|slots|args|result|event|item|proposal)\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])*\s*(\?\?|==|!=|<=|>=|&&|\|\||[<>+\-*/%?]|$)`)
})

// checkBareExpr warns about a with:/set: value that looks like an
// expression but is not wrapped in {{ }}: it reaches the host as that
// literal text (the #1 footgun of reference §6.2).
func checkBareExpr(c *checker) {
	c.eachEffect(func(e *Effect, site effSite) {
		var walk func(v any, path string, p Pos, what string)
		walk = func(v any, path string, p Pos, what string) {
			switch x := v.(type) {
			case string:
				s := strings.TrimSpace(x)
				if !isTemplated(s) && bareExprRe().MatchString(s) {
					if what == "with" {
						p = e.withPos(path)
					}
					c.rep.warnf(p, ruleBareExpr, "%s: %s %q is a bare expression %q — it is passed as that literal string, not its value. Template it: \"{{ %s }}\"", site.Loc, what, path, s, s)
				}
			case []any:
				for _, it := range x {
					walk(it, path, p, what)
				}
			case map[string]any:
				for _, k := range slices.Sorted(maps.Keys(x)) {
					walk(x[k], path+"."+k, p, what)
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(e.With)) {
			walk(e.With[k], k, e.withPos(k), "with")
		}
		for _, kv := range e.Set {
			walk(kv.Value, kv.Key, kv.Pos, "set")
		}
		for _, kv := range e.Slots() {
			walk(kv.Value, kv.Key, kv.Pos, "slots")
		}
	})
}
