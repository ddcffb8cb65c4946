package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleBareName = &Rule{ID: "bare-name", Severity: diag.Warning, LintOnly: true,
	Summary: "a guard or effect value names a bare identifier that is no root (not world.x or slots.x): both engines fail where they reach it",
	Example: "on_complete:\n  - set: {s: \"{{ last_job_status }}\"}"}

// checkBareNames warns where a guard or an effect value names a bare
// identifier that is no root: both engines fail there when they reach it
// (conformance bare-names).
func checkBareNames(c *checker) {
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		for _, n := range c.bareNames(compiledGuard, t.When) {
			c.rep.WarnAt(t.WhenPos(), diag.ArcPlace(s.Path, intent), ruleBareName, "state %q intent %q arm %d: when %q names %q, which is no root: %s",
				s.Path, intent, arm, t.When, n, bareNameFix(n, false))
		}
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template {
			return
		}
		report := func(p story.Pos, what, v string) {
			for _, n := range c.bareNames(compiledTemplate, v) {
				c.rep.WarnAt(p, site.Place(), ruleBareName, "%s: %s %q names %q, which is no root: %s", site.String(), what, v, n, bareNameFix(n, site.OnComplete))
			}
		}
		eachValueString(e, func(p story.Pos, what, key, _, v string) { report(p, what+" "+key, v) })
		for _, n := range c.bareNames(compiledGuard, e.When) {
			c.rep.WarnAt(e.Pos, site.Place(), ruleBareName, "%s: when %q names %q, which is no root: %s", site.String(), e.When, n, bareNameFix(n, site.OnComplete))
		}
	})
}

// bareNames lists the bare names a guard or template (kind) that compiles
// reads, from the check's one compile of it (compile_cache.go).
func (c *checker) bareNames(kind compileKind, src string) []string {
	if !strings.Contains(src, "{{") && (kind != compiledGuard || src == "") {
		return nil
	}
	if b, ok := c.builtOf(kind, src).(interface{ BareNames() []string }); ok {
		return b.BareNames()
	}
	return nil
}

// bareNameFix says what happens on both engines and the spelling to use.
func bareNameFix(name string, onComplete bool) string {
	what := "the turn fails there on both engines (the existing engine: \"cannot fetch " + name + " from expr.Env\", and its test flows stops the run)"
	if onComplete {
		what = "the job's on_complete fails there on both engines (the existing engine logs job.error): none of its effects runs and its target is not taken"
	}
	return fmt.Sprintf("%s; write world.%s for a world key (last_job_status, last_error, a bound key) or slots.%s for a slot", what, name, name)
}

// eachValueString calls fn with every string leaf of an effect's set:,
// with: and slots: values, with its key's position, what holds it, the
// key and its path.
func eachValueString(e *story.Effect, fn func(p story.Pos, what, key, path, v string)) {
	walk := func(v any, p story.Pos, what, key string) {
		walkStrings(v, key, func(path, s string) { fn(p, what, key, path, s) })
	}
	for _, kv := range e.Set {
		walk(kv.Value, kv.Pos, "set", kv.Key)
	}
	for _, k := range sortedMapKeys(e.With) {
		walk(e.With[k], e.WithPos(k), "with", k)
	}
	for _, kv := range e.Slots() {
		walk(kv.Value, kv.Pos, "slots", kv.Key)
	}
}
