package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEmitAfterBind = &Rule{ID: "emit-after-bind", Severity: diag.Warning, LintOnly: true,
	Summary: "an emit_intent guard reads a key a call of its chain binds where no post-bind pass re-reads it (a transition's effects:, a background job's on_complete target): it never fires that turn",
	Example: "effects:\n  - {invoke: host.run, bind: {n: count}}\n  - {when: \"world.n > 0\", emit_intent: done}"}

// checkEmitAfterBind warns about the two places where an emit_intent
// guard reading a key a call of the same chain binds never sees the bind
// (docs/compat/engine.md "Emit passes").
func checkEmitAfterBind(c *checker) {
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		bound := boundKeys(t.Effects)
		for _, e := range t.Effects {
			if k := emitReadsBound(e, bound); k != "" {
				c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitAfterBind,
					"state %q intent %q: this emit_intent reads world.%s, which a call of the same effects binds; an emit in a transition's effects: is decided when the chain reaches it, before the call runs, and is not re-read after the bind, so the bind cannot make it fire that turn (move it to the target state's on_enter: the post-bind pass re-reads the resting state's own on_enter emits)",
					s.Path, intent, k)
			}
		}
	})
	seen := map[*story.Effect]bool{}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !e.Background() || site.State == nil || site.Template {
			return
		}
		for _, oc := range e.OnComplete() {
			tg := strings.TrimSpace(oc.Target())
			if tg == "" || tg == "." || strings.Contains(tg, "{{") || strings.HasPrefix(tg, "@exit:") {
				continue
			}
			p, err := story.ResolvePath(site.State.Path, tg)
			dst := c.st.State(p)
			if err != nil || dst == nil {
				continue
			}
			bound := boundKeys(dst.OnEnter)
			for _, x := range dst.OnEnter {
				if k := emitReadsBound(x, bound); k != "" && !seen[x] {
					seen[x] = true
					c.rep.Warnf(x.PosOf("emit_intent"), ruleEmitAfterBind,
						"state %q on_enter: this emit_intent reads world.%s, which a call of this on_enter binds; when the background job of %s lands here through on_complete, no post-bind pass runs, so the bind cannot make it fire until a later ordinary turn enters %q (add an arc that re-enters the state, or route from the job's on_complete)",
						dst.Path, k, site.String(), dst.Path)
				}
			}
		}
	})
}

// boundKeys are the top-level keys the foreground calls of a chain bind.
func boundKeys(effs []*story.Effect) map[string]bool {
	out := map[string]bool{}
	for _, e := range effs {
		if e.Invoke == "" || e.Background() {
			continue
		}
		for _, b := range e.Bind() {
			k, _, _ := strings.Cut(b.Key, ".")
			out[k] = true
		}
	}
	return out
}

// emitReadsBound is the first bound key an emit_intent entry's when: or
// name reads ("" when none, or not an emit).
func emitReadsBound(e *story.Effect, bound map[string]bool) string {
	if e.EmitIntent() == "" || len(bound) == 0 {
		return ""
	}
	for _, src := range []string{e.When, e.EmitIntent()} {
		for _, m := range worldRefRe.FindAllStringSubmatch(src, -1) {
			if bound[m[1]] {
				return m[1]
			}
		}
	}
	return ""
}
