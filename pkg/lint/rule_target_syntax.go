package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleTargetSyntax = &Rule{ID: "target-syntax", Severity: diag.Warning, LintOnly: true,
	Summary: "a templated target or initial: that does not compile in the syntax the existing engine renders it with there: an arc target on a user turn and every initial: render with pongo2 (no world?.k, no ternary; an arm a literal emit_intent hops to may be written for the hop), an emit_intent hop's target and an on_complete target with the expr template syntax (no |filter; a {% %} tag stays text, so the path names no state); the existing engine fails that turn (an on_complete: the job, the machine stays), kitsoki falls back to the other syntax on a user turn or hop (an on_complete target is dropped and an initial: fails the entering turn, on both); one that compiles in neither fails on both engines",
	Example: "on:\n  go:\n    - target: \"s{{ world?.n }}\""}

// checkTargetSyntax warns at a templated target or initial: that does not
// compile in the syntax it renders with upstream (story-runtime.md §1.6,
// docs/compat/engine.md "Transition target templates"). Both engines
// compile a target only when it renders, so neither refuses the story: a
// turn that takes the arm fails there. A {{ state... }} read is
// target-template's (it fails only the expr syntax's whitelist). A
// target only the expr syntax compiles, on an arm a literal emit_intent
// hops to, is taken as written for the hop and not warned.
func checkTargetSyntax(c *checker) {
	pc := &pongoCheck{c: c}
	checkArcTargetSyntax(c, pc)
	checkCompletionTargetSyntax(c, pc)
	checkInitialSyntax(c, pc)
}

// checkArcTargetSyntax judges each templated arc target against pongo2 (a
// user turn's) and the expr template syntax (an emit hop's).
func checkArcTargetSyntax(c *checker, pc *pongoCheck) {
	hops := emittedIntents(c)
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		src := t.Target
		if !story.TemplatedAt(story.FieldTarget, src) || stateRead(src) {
			return
		}
		p := t.TargetPos()
		if p.File == "" {
			p = t.Pos
		}
		place := fmt.Sprintf("state %q intent %q arm %d: target %q", s.Path, intent, arm, src)
		perr, xerr := pc.compiled(compiledPongoInline, pc.inlineLoader, src), c.compileTemplate(src)
		if perr == nil && xerr == nil && !strings.Contains(src, "{%") {
			return
		}
		hop := hopTo(c, hops[intent], s)
		switch {
		case perr != nil && xerr != nil:
			c.rep.Warnf(c.errAt(p, src, perr), ruleTargetSyntax, "%s compiles neither as pongo2, which renders a user turn's target (%s), nor in the expr template syntax, which renders an emit hop's (%s): every turn that takes this arm fails, on both engines; %s",
				place, oneLine(perr), oneLine(xerr), targetSyntaxFix)
		case perr != nil && hop == nil:
			// an arm an emit hops to, written in the hop's syntax, is
			// taken to be the hop's (a user turn sending it would fail)
			c.rep.Warnf(c.errAt(p, src, perr), ruleTargetSyntax, "%s does not compile as pongo2 (%s), which renders a user turn's target: the existing engine fails every user turn that takes this arm (kitsoki falls back to the expr template syntax); %s",
				place, oneLine(perr), targetSyntaxFix)
		case perr == nil && xerr == nil && hop != nil && strings.Contains(src, "{%"):
			c.rep.Warnf(p, ruleTargetSyntax, "%s holds a {%% %%} tag, which the expr template syntax an emit hop's target renders with leaves as text, and the emit_intent: %s at %s makes such a hop: the target then names no state, and the machine moves to that raw path on both engines; %s",
				place, intent, hop.PosOf("emit_intent"), targetSyntaxFix)
		case xerr != nil && hop != nil:
			c.rep.Warnf(c.errAt(p, src, xerr), ruleTargetSyntax, "%s does not compile in the expr template syntax (%s), which renders an emit hop's target, and the emit_intent: %s at %s makes such a hop: the existing engine fails that turn (kitsoki falls back to pongo2); %s",
				place, oneLine(xerr), intent, hop.PosOf("emit_intent"), targetSyntaxFix)
		}
	})
}

// checkCompletionTargetSyntax judges each templated on_complete target
// against the expr template syntax it renders with.
func checkCompletionTargetSyntax(c *checker, pc *pongoCheck) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		src := e.Target()
		if site.Template || site.Inline || site.State == nil || !site.OnComplete || !story.TemplatedAt(story.FieldTarget, src) || stateRead(src) {
			return
		}
		xerr := c.compileTemplate(src)
		place := fmt.Sprintf("state %q on_complete target %q", site.State.Path, src)
		if xerr == nil {
			if strings.Contains(src, "{%") {
				c.rep.Warnf(e.PosOf("target"), ruleTargetSyntax, "%s holds a {%% %%} tag, which the expr template syntax an on_complete target renders with leaves as text: the target then names no state, so the job fails when it completes (job.error: the target does not exist) and the machine stays, on both engines; %s",
					place, targetSyntaxFix)
			}
			return
		}
		if perr := pc.compiled(compiledPongoInline, pc.inlineLoader, src); perr != nil {
			c.rep.Warnf(c.errAt(e.PosOf("target"), src, xerr), ruleTargetSyntax, "%s compiles neither in the expr template syntax, which renders an on_complete target (%s), nor as pongo2 (%s): the job fails when it completes, on both engines; %s",
				place, oneLine(xerr), oneLine(perr), targetSyntaxFix)
			return
		}
		c.rep.Warnf(c.errAt(e.PosOf("target"), src, xerr), ruleTargetSyntax, "%s does not compile in the expr template syntax (%s), which renders an on_complete target: the target is dropped when the job completes (after the chain's set:) and the machine stays, on both engines; %s",
			place, oneLine(xerr), targetSyntaxFix)
	})
}

// checkInitialSyntax judges each templated initial: (an import's entry:
// included) against pongo2, which renders it on every path.
func checkInitialSyntax(c *checker, pc *pongoCheck) {
	for _, s := range c.states() {
		src := s.Initial()
		if s.Type != "compound" || !story.IsTemplated(src) || stateRead(src) {
			continue
		}
		if perr := pc.compiled(compiledPongoInline, pc.inlineLoader, src); perr != nil {
			c.rep.WarnAt(c.errAt(s.InitialPos(), src, perr), diag.StatePlace(s.Path), ruleTargetSyntax, "state %q initial: %q does not compile as pongo2 (%s), which renders an initial: on every path: every turn that enters %q fails, on both engines; %s",
				s.Path, src, oneLine(perr), s.Path, targetSyntaxFix)
		}
	}
	for _, alias := range sortedMapKeys(c.st.Imports) {
		// an import's entry: is its wrapper state's initial:
		im := c.st.Imports[alias]
		if !story.TemplatedAt(story.FieldInitial, im.Entry) || stateRead(im.Entry) {
			continue
		}
		if perr := pc.compiled(compiledPongoInline, pc.inlineLoader, im.Entry); perr != nil {
			c.rep.Warnf(c.errAt(im.At("entry"), im.Entry, perr), ruleTargetSyntax, "imports.%s: entry %q does not compile as pongo2 (%s), which renders it as the initial: of the state %q on every path: every turn that enters %q fails, on both engines; %s",
				alias, im.Entry, oneLine(perr), alias, alias, targetSyntaxFix)
		}
	}
}

// targetSyntaxFix is the fix every target-syntax message ends with.
const targetSyntaxFix = "write it in the syntax both render (a plain {{ world.k }} read, world[\"k\"] for an odd key), or choose the state with separate arms guarded by when:"

// stateRead reports a {{ state... }} read in src (target-template's).
func stateRead(src string) bool {
	for _, m := range tagRe.Get().FindAllStringIndex(src, -1) {
		if stateRefRe.Get().MatchString(src[m[0]:m[1]]) {
			return true
		}
	}
	return false
}

// emittedIntents maps each intent a literal emit_intent: of the story
// names to the places of those effects (an inline effects: list never
// runs).
func emittedIntents(c *checker) map[string][]effSite {
	out := map[string][]effSite{}
	c.eachEffect(func(e *story.Effect, site effSite) {
		name := e.EmitIntent()
		if site.Template || site.Inline || site.State == nil || name == "" || story.IsTemplated(name) {
			return
		}
		out[name] = append(out[name], site)
	})
	return out
}

// hopTo is the first emit of sites whose hop may take an arm of owner:
// one dispatched on owner's line (owner, an ancestor or a descendant of
// the emitting state, or of the state its arm moves to); nil when none.
func hopTo(c *checker, sites []effSite, owner *story.State) *story.Effect {
	for _, site := range sites {
		at := []*story.State{site.State}
		if site.Intent != "" {
			if arms := site.State.Arms(site.Intent); site.Arm < len(arms) {
				if tg, err := site.State.Resolve(arms[site.Arm].Target); err == nil && tg.Kind == story.TargetState {
					at = append(at, c.descend(tg.State))
				}
			}
		}
		for _, s := range at {
			if onLine(s, owner) || onLine(owner, s) {
				return site.Effect
			}
		}
	}
	return nil
}

// onLine reports whether a is s or an ancestor of s.
func onLine(a, s *story.State) bool {
	for ; s != nil; s = s.Parent {
		if s == a {
			return true
		}
	}
	return false
}

// oneLine is err's first line: an expr compile error goes on with the
// source and a caret, which the message places already.
func oneLine(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}
