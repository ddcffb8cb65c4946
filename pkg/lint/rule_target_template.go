package lint

import (
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleTargetTemplate = &Rule{ID: "target-template", Severity: diag.Warning, LintOnly: true,
	Summary: "a templated arc target reads a world key its own arm's effects write (set:, increment:, a call's bind:): the target renders before the effects run, so it sees the value from before the arm; a {{ state.* }} in a target or initial: is never the session's state there (empty, or a failed turn on an emit hop or on_complete)",
	Example: "on:\n  go:\n    - target: \"s{{ world.n }}\"\n      effects: [{set: {n: 5}}]"}

// stateRefRe finds a read of the template root state (state.x, state["x"]),
// not a key named state under another root (world.state).
var stateRefRe = &lazyre.Regexp{Expr: `(?:^|[^.\w])(state)\s*[.\[]`}

// checkTargetTemplates warns where a target or initial: template reads
// what it cannot see when it renders (docs/compat/engine.md "A target
// renders before the arm's effects"): the arm's own writes, and the
// session's state.
func checkTargetTemplates(c *checker) {
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		if !story.IsTemplated(t.Target) {
			return
		}
		p := t.TargetPos
		if p.File == "" {
			p = t.Pos
		}
		if c.targetState(s, intent, t.Target, p) {
			return
		}
		written := armWrites(t.Effects)
		for _, m := range tagRe.Get().FindAllStringIndex(t.Target, -1) {
			tag := t.Target[m[0]:m[1]]
			for _, r := range worldRefRe.Get().FindAllStringSubmatchIndex(tag, -1) {
				k := tag[r[2]:r[3]]
				if !written[k] {
					continue
				}
				line, col := lineCol(t.Target, m[0]+r[0])
				c.rep.Warnf(c.src.valuePos(p, t.Target, line, col), ruleTargetTemplate,
					"state %q intent %q arm %d: target %q reads world.%s, which this arm's effects write; a target renders before the arm's effects run (set:, increment:, bind:), so it sees world.%s from before the arm, not the new value (compute the value in an earlier turn, or choose the target with separate arms guarded by when:)",
					s.Path, intent, arm, t.Target, k, k)
				return
			}
		}
	})
	for _, s := range c.states() {
		if story.IsTemplated(s.Initial) {
			c.targetState(s, "", s.Initial, s.InitialPos)
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template || site.State == nil || !site.OnComplete || !story.IsTemplated(e.Target()) {
			return
		}
		c.targetState(site.State, "on_complete", e.Target(), e.PosOf("target"))
	})
}

// targetState warns at the first {{ state... }} read inside a target or
// initial: template src (of state s; what names an arm's intent or
// on_complete, "" for s's initial:), and reports whether it did.
func (c *checker) targetState(s *story.State, what, src string, p story.Pos) bool {
	for _, m := range tagRe.Get().FindAllStringIndex(src, -1) {
		if !strings.HasPrefix(src[m[0]:], "{{") {
			continue
		}
		r := stateRefRe.Get().FindStringSubmatchIndex(src[m[0]:m[1]])
		if r == nil {
			continue
		}
		line, col := lineCol(src, m[0]+r[2])
		place := "state " + strconv.Quote(s.Path)
		switch what {
		case "":
			place += " initial:"
		case "on_complete":
			place += " " + what + " target"
		default:
			place += " intent " + strconv.Quote(what) + " target"
		}
		c.rep.Warnf(c.src.valuePos(p, src, line, col), ruleTargetTemplate,
			"%s %q reads the session's state, which a target or initial: never sees: it renders before the move, without the state (a user turn's target and an initial: render it empty; an emit hop's or an on_complete target fails the turn); name the state in the path itself, or keep what you need in a world key an earlier turn sets",
			place, src)
		return true
	}
	return false
}

// armWrites are the top-level world keys an arm's effects write: set:,
// increment: and a foreground call's bind: (not an inline effects: list,
// which never runs).
func armWrites(effs []*story.Effect) map[string]bool {
	out := boundKeys(effs)
	for _, e := range effs {
		for _, kvs := range [][]story.KV{e.Set, e.Increment()} {
			for _, kv := range kvs {
				k, _, _ := strings.Cut(kv.Key, ".")
				out[k] = true
			}
		}
	}
	return out
}
