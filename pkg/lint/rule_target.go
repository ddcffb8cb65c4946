package lint

import (
	"errors"
	"fmt"
	"kitsoki/internal/yamlnode"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleTarget = &Rule{ID: "target", Severity: diag.Error, Summary: "transition, timeout and on_complete targets resolve (absolute, dotted, ../, ., @exit:); a proposal's on_complete target names a state from the top of the tree",
	Example: "on:\n  go: [{target: nowhere}]"}

var ruleExits = &Rule{ID: "exits", Severity: diag.Error, Summary: "@exit:<name> targets name an exit declared in exits:",
	Example: "on:\n  go: [{target: \"@exit:done\"}]   # no exits:"}

// checkTargets: every literal target resolves (§4.3).
func checkTargets(c *checker) {
	c.eachTransition(func(s *story.State, in string, a int, t *story.Transition) {
		p := t.TargetPos()
		if p.File == "" {
			p = t.Pos
		}
		c.checkTarget(s, t.Target, p, "", diag.Place{}, false)
	})
	for _, s := range c.states() {
		if s.Timeout() != nil && s.Timeout().Target != "" {
			// upstream words a timeout's target as an arm's: `state "a":
			// transition target ...`, naming no timeout.target
			c.checkTarget(s, s.Timeout().Target, s.Timeout().TargetPos, "", diag.Place{}, true)
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Target() != "" && site.OnComplete && site.InProposal() {
			c.checkProposalTarget(e, site)
		}
		if site.Template || site.State == nil {
			return
		}
		if e.OnError() != "" {
			c.checkOnError(e, site)
		}
		if e.Target() != "" && site.OnComplete {
			if tg := strings.TrimSpace(e.Target()); tg == "." || (strings.HasPrefix(tg, "@exit:") && !c.st.Imported()) {
				// an on_complete target must name a state
				c.rep.ErrAt(e.PosOf("target"), site.Place(), ruleTarget, "%s", onCompleteNoState(site.String(), tg))
				return
			}
			c.checkTarget(site.State, e.Target(), e.PosOf("target"), site.String()+": ", site.Place(), false)
		}
	})
}

// noSuchTarget is the message of a target that resolves to no state.
func noSuchTarget(from *story.State, prefix, target, resolved string) string {
	if prefix != "" {
		return fmt.Sprintf("target %q (resolved: %q) does not exist", target, resolved)
	}
	return fmt.Sprintf("state %q: transition target %q (resolved: %q) does not exist", from.Path, target, resolved)
}

// checkTarget checks a literal target written in from; its messages
// start with prefix, which names the place at (or, when "", with from's
// place). timeout says it is a timeout.target, which is looked up as
// written, so a hint for one in an imported story is the folded path,
// never a "../" chain.
func (c *checker) checkTarget(from *story.State, target string, p story.Pos, prefix string, at diag.Place, timeout bool) {
	if prefix == "" {
		at = diag.StatePlace(from.Path)
	}
	maxClimb := depthOf(from) + 1
	if timeout {
		maxClimb = -1
	}
	if tagOnly(target) {
		c.rep.ErrAt(p, at, ruleTarget, "%s%s: a target is rendered only when it holds {{ }}, so a {%% %%} tag alone is read as a state path; write the choice inside {{ }} (story-runtime.md §1.6)", prefix, noSuchTarget(from, prefix, target, target))
		return
	}
	if target != "" && strings.TrimSpace(target) != target && !story.IsTemplated(target) {
		// upstream's load check resolves a literal target as written
		msg := noSuchTarget(from, prefix, target, verbatimResolved(from, target))
		fix := fmt.Sprintf("remove the whitespace around %q", strings.TrimSpace(target))
		if strings.TrimSpace(target) == "" {
			fix = "write . to stay, or a state path"
		}
		c.rep.ErrAt(p, at, ruleTarget, "%s%s; %s", prefix, msg, fix)
		return
	}
	if foldedAbsolute(c.st, target) { // rule_target_folded.go
		if path := strings.ReplaceAll(strings.TrimSpace(target), "/", "."); !c.src.inFolded(foldedTop(c.st), path, 0) {
			msg := noSuchTarget(from, prefix, target, path)
			c.rep.ErrAt(p, at, ruleTarget, "%s%s: this story is imported, and a dotted target inside an imported story is kept as written by the fold, so it names a state of the importing story's tree (the child's own states are under <alias>.); %s", prefix, msg, c.foldedFix(from, from.Path, maxClimb, path))
		}
		return
	}
	t, err := from.Resolve(target)
	if err != nil {
		var te *story.TargetError
		isTarget, msg := errors.As(err, &te), err.Error()
		if isTarget && prefix == "" {
			msg = fmt.Sprintf("state %q: %s", from.Path, msg)
		}
		if isTarget && te.Msg == "" {
			if prefix != "" {
				msg = fmt.Sprintf("target %q (resolved: %q) does not exist", te.Target, te.Resolved)
			}
			if t := strings.TrimSpace(target); strings.HasPrefix(t, "..") && !strings.HasPrefix(t, "../") && t != ".." {
				// "..c" is one segment appended to the path, not "../c"
				if alt, err := from.Resolve("../" + strings.TrimLeft(t, ".")); err == nil && alt.Kind == story.TargetState {
					msg += fmt.Sprintf("; a parent step is \"../\": did you mean `../%s` (%s)?", strings.TrimLeft(t, "."), alt.Path)
				} else {
					msg += "; a parent step is \"../\" (with the slash)"
				}
			} else if sug := c.nearState(from, te.Resolved, lastSegment(te.Resolved)); sug != "" {
				msg += "; " + yamlnode.Meant(spelled(c.st, from.Path, sug, maxClimb))
			}
		}
		c.rep.ErrAt(p, at, ruleTarget, "%s%s", prefix, msg)
		return
	}
	if t.Kind == story.TargetExit {
		if len(c.st.Exits) == 0 {
			if c.st.Imported() {
				return // mapped by the importing parent (checked there)
			}
			where := prefix
			if where == "" {
				where = fmt.Sprintf("state %q: ", from.Path) // upstream's text (story-format §9.6)
			}
			c.rep.ErrAt(p, at, ruleExits, "%stransition target %q (resolved: %q) does not exist (declare the exit under exits:)", where, target, target)
			return
		}
		if c.st.Exits[t.Exit] == nil {
			c.rep.ErrAt(p, at, ruleExits, "%s@exit:%s referenced but not declared in exits:", prefix, t.Exit)
		}
	}
}

// verbatimResolved is the path upstream's loader resolves target to from
// the state from without trimming it (story.ResolvePath, untrimmed).
func verbatimResolved(from *story.State, target string) string {
	base := ""
	if from != nil {
		base = from.Path
	}
	path, _ := story.ClimbPath(base, target)
	return path
}

// tagOnly reports a target holding a {% %} tag and no {{ }}: it is read
// as written (story-runtime.md §1.6), so it names no state.
func tagOnly(target string) bool {
	return story.IsTemplated(target) && !story.TemplatedAt(story.FieldTarget, target)
}

// checkProposalTarget: upstream resolves a proposal's on_complete target
// (at any depth, guarded or not) from the top of the tree, as written: no
// trimming, and "." or "@exit:<name>" name no state there. A literal one
// that names no state fails the load; a {{ }} target is not checked.
func (c *checker) checkProposalTarget(e *story.Effect, site effSite) {
	tg := e.Target()
	if story.TemplatedAt(story.FieldTarget, tg) {
		return
	}
	path, _ := story.ClimbPath("", tg)
	if path != "" && path == strings.TrimSpace(path) && path != "." && !strings.HasPrefix(path, "@exit:") && !strings.HasPrefix(path, "..") {
		var te *story.TargetError
		if _, err := c.st.ResolveFrom("", path); err == nil || !errors.As(err, &te) || te.Msg != "" {
			return
		}
	}
	c.rep.ErrAt(e.PosOf("target"), site.Place(), ruleTarget, "%s: target %q (resolved: %q) does not exist; a proposal's on_complete target is read from the top of the tree, so write the full dotted path of a state (no \".\", no @exit:)", site.String(), tg, path)
}
