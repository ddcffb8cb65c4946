package lint

import (
	"slices"

	"kitsoki/pkg/diag"
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
			c.rep.ErrAt(on.Pos, diag.StatePlace(s.Path), story.RuleIntent, "state %q: on: %q — intent not declared in intents library or state.intents%s", s.Path, in, c.didYouMeanOf(in, func() []string { return slices.Concat(c.st.IntentOrder, s.IntentOrder) }))
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		// upstream checks no emits of phase-generated states, and reads a
		// {% %} tag alone as a literal name
		if e.EmitIntent() == "" || story.IsTemplated(e.EmitIntent()) && !tagOnly(e.EmitIntent()) || site.State == nil || site.Template || c.expanded {
			return
		}
		name := e.EmitIntent() // untrimmed, as upstream's load check
		if nearest(site.State, func(s *story.State) bool { return s.HasOn(name) }) != nil {
			return
		}
		on := site.State.Path
		if !site.Inline { // an error, named as the fold names its place (demoteInline keeps a warning's)
			on = foldedState(c.st, on)
		}
		c.rep.ErrAt(e.PosOf("emit_intent"), site.Place(), story.RuleIntent, "%s: emit_intent %q is not declared on state %q's on: arcs (nor any ancestor's)", site.String(), name, on)
	})
}
