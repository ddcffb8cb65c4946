package lint

import (
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleTargetTemplate = &Rule{ID: "target-template", Severity: diag.Warning, LintOnly: true,
	Summary: "a templated arc target, or a templated initial: its move descends through, reads a world key its own arm's effects write (set:, increment:, a call's bind:), or an initial: reads one its own state's on_enter writes: both render before those effects run, so they see the value from before the arm; a {{ state.* }} in a target or initial: is never the session's state there (empty; on an emit hop a failed turn; on an on_complete the target is dropped and the machine stays)",
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
		if !story.TemplatedAt(story.FieldTarget, t.Target) {
			return
		}
		p := t.TargetPos()
		if p.File == "" {
			p = t.Pos
		}
		if c.targetState(s, intent, t.Target, p) {
			return
		}
		written := armWrites(t.Effects)
		if k, off := firstWritten(t.Target, written); k != "" {
			line, col := lineCol(t.Target, off)
			c.rep.Warnf(c.src.valuePos(p, t.Target, line, col), ruleTargetTemplate,
				"state %q intent %q arm %d: target %q reads world.%s, which this arm's effects write; a target renders before the arm's effects run (set:, increment:, bind:), so it sees world.%s from before the arm, not the new value (compute the value in an earlier turn, or choose the target with separate arms guarded by when:)",
				s.Path, intent, arm, t.Target, k, k)
		}
	})
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		written := armWrites(t.Effects)
		if len(written) == 0 || story.TemplatedAt(story.FieldTarget, t.Target) {
			return
		}
		dst, err := s.Resolve(t.Target)
		if err != nil || dst.Kind != story.TargetState {
			return
		}
		p := t.TargetPos()
		if p.File == "" {
			p = t.Pos
		}
		descendInitials(dst.State, func(in *story.State) bool {
			k, _ := firstWritten(in.Initial(), written)
			if k == "" {
				return false
			}
			c.rep.Warnf(p, ruleTargetTemplate,
				"state %q intent %q arm %d: target %q enters %q, whose initial: %q reads world.%s, which this arm's effects write; an initial: the move descends through renders before the arm's effects run, so it sees world.%s from before the arm (compute the value in an earlier turn, or target the child with separate arms guarded by when:)",
				s.Path, intent, arm, t.Target, in.Path, in.Initial(), k, k)
			return true
		})
	})
	for _, s := range c.states() {
		if !story.IsTemplated(s.Initial()) || c.targetState(s, "", s.Initial(), s.InitialPos()) {
			continue
		}
		if k, off := firstWritten(s.Initial(), armWrites(s.OnEnter)); k != "" {
			line, col := lineCol(s.Initial(), off)
			c.rep.Warnf(c.src.valuePos(s.InitialPos(), s.Initial(), line, col), ruleTargetTemplate,
				"state %q initial: %q reads world.%s, which its own on_enter writes; an initial: renders when the move is resolved, before any entered state's on_enter runs, so it sees world.%s from before %q is entered (compute the value in an earlier turn, or choose the child with separate arms guarded by when:)",
				s.Path, s.Initial(), k, k, s.Path)
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template || site.State == nil || !site.OnComplete || !story.TemplatedAt(story.FieldTarget, e.Target()) {
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
			"%s %q reads the session's state, which a target or initial: never sees: it renders before the move, without the state (a user turn's target and an initial: render it empty; an emit hop's fails the turn, and an on_complete's is dropped, leaving the machine where it is); name the state in the path itself, or keep what you need in a world key an earlier turn sets",
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

// firstWritten is the first world key a tag of src reads (world.k,
// world["k"], world['k'] or world?.k) that written holds, with the byte
// offset of its world in src ("" when none).
func firstWritten(src string, written map[string]bool) (string, int) {
	if len(written) == 0 {
		return "", 0
	}
	for _, r := range tagReads(src, true) {
		if r.root == "world" && written[r.key] {
			return r.key, r.off
		}
	}
	return "", 0
}

// descendInitials calls fn with each state whose templated initial: a
// move entering dst renders (every region of a parallel state, through
// literal initial: children) until fn reports it warned.
func descendInitials(dst *story.State, fn func(s *story.State) bool) bool {
	switch {
	case dst == nil:
		return false
	case dst.Parallel:
		for _, ch := range dst.Children {
			if descendInitials(ch, fn) {
				return true
			}
		}
		return false
	case dst.Type != "compound" || dst.Initial() == "":
		return false
	case story.IsTemplated(dst.Initial()):
		return fn(dst)
	}
	for _, ch := range dst.Children {
		if ch.Name == dst.Initial() {
			return descendInitials(ch, fn)
		}
	}
	return false
}
