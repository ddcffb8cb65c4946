package lint

import (
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleUnfetchedRoot = &Rule{ID: "unfetched-root", Severity: diag.Warning, LintOnly: true,
	Summary: "a guard, an effect value or a view element's when: reads inbox, proposal or workspace, which no run gives an expression: both engines fail where they reach it (a view element is never shown)",
	Example: "when: \"inbox != nil\""}

// checkUnfetchedRoots warns where an expression reads inbox, proposal or
// workspace: they compile as roots, but upstream's environment never holds
// them, so the evaluation fails ("cannot fetch inbox from expr.Env") and
// ours follows (conformance untyped-roots-unfetched).
func checkUnfetchedRoots(c *checker) {
	const fails = "the turn fails there on both engines (the existing engine: \"cannot fetch %s from expr.Env\", and its test flows stops the run); a view's or say:'s text reads it as empty"
	const failsJob = "the job's on_complete stops there on both engines (none of its writes stand)"
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		for _, n := range c.unfetched(compiledGuard, t.When) {
			c.rep.WarnAt(t.WhenPos(), diag.ArcPlace(s.Path, intent), ruleUnfetchedRoot, "state %q intent %q arm %d: when %q reads %s, which no run gives an expression: "+fails,
				s.Path, intent, arm, t.When, n, n)
		}
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template {
			return
		}
		report := func(p story.Pos, what, src string, kind compileKind) {
			for _, n := range c.unfetched(kind, src) {
				if site.OnComplete {
					c.rep.WarnAt(p, site.Place(), ruleUnfetchedRoot, "%s: %s %q reads %s, which no run gives an expression: "+failsJob, site.String(), what, src, n)
					continue
				}
				c.rep.WarnAt(p, site.Place(), ruleUnfetchedRoot, "%s: %s %q reads %s, which no run gives an expression: "+fails, site.String(), what, src, n, n)
			}
		}
		eachValueString(e, func(p story.Pos, what, key, _, v string) { report(p, what+" "+key, v, compiledTemplate) })
		if e.EmitIntent() != "" {
			// an emit_intent's when: is deferred to the post-bind pass: a
			// failure there drops the emit (conformance untyped-roots-unfetched emit-when)
			for _, n := range c.unfetched(compiledGuard, e.When) {
				c.rep.WarnAt(e.Pos, site.Place(), ruleUnfetchedRoot, "%s: when %q reads %s, which no run gives an expression: the emit_intent never runs on either engine", site.String(), e.When, n)
			}
			return
		}
		report(e.Pos, "when", e.When, compiledGuard)
	})
	for _, s := range c.states() {
		c.eachViewElement(s, func(el *story.ViewElement, where elemPlace) {
			for _, n := range c.unfetched(compiledGuard, el.When) {
				c.rep.Warnf(el.Pos, ruleUnfetchedRoot, "state %s %s: when %q reads %s, which no run gives an expression: the element is never shown on either engine",
					strconv.Quote(s.Path), where.String(), el.When, n)
			}
		})
	}
}

// unfetched lists the unfetched roots a guard or template (kind) that
// compiles reads, from the check's one compile of it (compile_cache.go).
func (c *checker) unfetched(kind compileKind, src string) []string {
	if src == "" || !strings.Contains(src, "inbox") && !strings.Contains(src, "proposal") && !strings.Contains(src, "workspace") {
		return nil
	}
	if kind == compiledTemplate && !strings.Contains(src, "{{") {
		return nil
	}
	if b, ok := c.builtOf(kind, src).(interface{ UnfetchedRoots() []string }); ok {
		return b.UnfetchedRoots()
	}
	return nil
}
