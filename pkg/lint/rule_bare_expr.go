package lint

import (
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleBareExpr = &Rule{ID: "bare-expr", Severity: diag.Warning, LintOnly: true,
	Summary: "a with: value looks like an expression but has no {{ }}",
	Example: "with: {cwd: world.workdir}"}

// bareExprRe matches a string that reads as an expression over a template
// root (world.x, slots.y ?? 'z', args.n + 1) but has no {{ }}.
var bareExprRe = &lazyre.Regexp{Expr: `^!?\(?(world|slots|args|result|event|item|proposal)\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])*\s*(\?\?|==|!=|<=|>=|&&|\|\||[<>+\-*/%?]|$)`}

// checkBareExpr warns about a with:/set: value that looks like an
// expression but has no {{ }} (reference §6.2).
func checkBareExpr(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		eachValueString(e, func(p story.Pos, what, _, path, s string) {
			s = strings.TrimSpace(s)
			if !story.IsTemplated(s) && bareExprRe.MatchString(s) {
				if what == "with" {
					p = e.WithPos(path) // the leaf, not its with: key
				}
				c.rep.WarnAt(p, site.Place(), ruleBareExpr, "%s: %s %q is a bare expression %q — it is passed as that literal string, not its value. Template it: \"{{ %s }}\"", site.String(), what, path, s, s)
			}
		})
	})
}
