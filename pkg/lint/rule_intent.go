package lint

import (
	"slices"

	"kitsoki/pkg/story"
)

// checkIntents: intents used in on: are declared globally or on that
// state itself ("*" always passes); emit_intent names an on: arc of the
// owning state or an ancestor (reference §4.2, §9.6).
func checkIntents(c *checker) {
	for _, s := range c.states() {
		for _, on := range s.On {
			in := on.Intent
			if in == "*" || c.intentKnown(s, in, false) {
				continue
			}
			c.rep.Errf(on.Pos, story.RuleIntent, "state %q: on: %q — intent not declared in intents library or state.intents%s", s.Path, in, c.didYouMean(in, slices.Concat(c.st.IntentOrder, s.IntentOrder)))
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		// upstream does not check the emits of phase-generated states
		// (a literal emit_intent of no arc there loads)
		if e.EmitIntent() == "" || story.IsTemplated(e.EmitIntent()) && !tagOnly(e.EmitIntent()) || site.State == nil || site.Template || c.expanded {
			// (a {% %} tag without {{ }} is a literal name, as
			// upstream renders an emit only when it holds {{)
			return
		}
		// as written: upstream's load check does not trim (" go" and
		// "go " name no arc)
		name := e.EmitIntent()
		handles := func(s *story.State) bool {
			for cur := s; cur != nil; cur = cur.Parent {
				if cur.HasOn(name) {
					return true
				}
			}
			return false
		}
		if handles(site.State) {
			return
		}
		c.rep.Errf(e.PosOf("emit_intent"), story.RuleIntent, "%s: emit_intent %q is not declared on state %q's on: arcs (nor any ancestor's)", site.String(), name, site.State.Path)
	})
}
