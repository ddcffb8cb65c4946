package story

import (
	"kitsoki/internal/yamlnode"
	"strings"
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
			msg := "state %q: on: %q — intent not declared in intents library or state.intents"
			if sug := yamlnode.Suggest(in, c.intentNames(s)); sug != "" {
				c.rep.errf(on.Pos, ruleIntent, msg+"; did you mean `%s`?", s.Path, in, sug)
			} else {
				c.rep.errf(on.Pos, ruleIntent, msg, s.Path, in)
			}
		}
	}
	c.eachEffect(func(e *Effect, site effSite) {
		if e.EmitIntent() == "" || isTemplated(e.EmitIntent()) || site.State == nil || site.Template {
			return
		}
		name := strings.TrimSpace(e.EmitIntent())
		handles := func(s *State) bool {
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
		// A transition's effects run on the way to its target: accept an
		// intent the destination handles too.
		if site.Intent != "" && !site.OnComplete {
			for _, t := range site.State.Arms(site.Intent) {
				if tg, err := site.State.Resolve(t.Target); err == nil && tg.State != nil && handles(tg.State) {
					return
				}
			}
		}
		c.rep.errf(e.keyPos("emit_intent"), ruleIntent, "%s: emit_intent %q is not declared on state %q's on: arcs (nor any ancestor's)", site.Loc(), name, site.State.Path)
	})
}

func (c *checker) intentNames(s *State) []string {
	out := append([]string{}, c.st.IntentOrder...)
	return append(out, s.IntentOrder...)
}
