package lint

import (
	"slices"

	"kitsoki/pkg/story"
)

// The one intent lookup every rule uses (on:, choice items, default_intent,
// contextual_routing, routing.free_form_fallback): a name is declared when
// upstream's fold would leave an intent of that name visible to the state.

// lookupIntent finds the intent name as seen from state s: on s itself
// (and, with ancestors, on its ancestors), in the global intents:, lifted
// from a child through imports.<alias>.intents.import, in the global
// intents of the stories importing this one (an imported child is checked
// folded into its importers upstream), or as an <alias>__<name> intent of
// a child. It returns nil when no declaration is known.
func (c *checker) lookupIntent(s *story.State, name string, ancestors bool) *story.Intent {
	for cur := s; cur != nil; cur = cur.Parent {
		if in := cur.Intents[name]; in != nil {
			return in
		}
		if !ancestors {
			break
		}
	}
	for st := c.st; st != nil; st = st.Importer() {
		if in := st.Intents[name]; in != nil {
			return in
		}
		if in := importedIntent(st, name); in != nil {
			return in
		}
	}
	return liftedIntent(c.st, name)
}

// intentKnown reports whether name is declared as seen from s: found by
// lookupIntent, or lifted from a child that could not be loaded here (an
// @kitsoki/ story embedded in upstream's binary), whose names are accepted.
func (c *checker) intentKnown(s *story.State, name string, ancestors bool) bool {
	if c.lookupIntent(s, name, ancestors) != nil || lifted(c.st, "intent", name) {
		return true
	}
	// an intents.import entry whose child intent is missing is the imports
	// rule's to report
	return slices.ContainsFunc(c.st.ImportOrder, func(a string) bool { return slices.Contains(c.st.Imports[a].ImportIntent, name) })
}

// checkArcIntent checks intent in, named at p by what (the key, prefixed
// with its state), as seen from s: s has an on: arc for it (arcIn says
// where), it is declared and, with freeText, it declares exactly one
// required string slot to receive a free-text utterance.
func (c *checker) checkArcIntent(s *story.State, p story.Pos, rule *Rule, what, arcIn, in string, freeText bool) {
	if !s.HasOn(in) {
		c.rep.Errf(p, rule, "%s %q has no matching on: arc %s", what, in, arcIn)
	}
	if decl := c.lookupIntent(s, in, true); decl == nil {
		c.rep.Errf(p, rule, "%s %q is not a declared intent", what, in)
	} else if freeText && !hasOneRequiredString(decl) {
		c.rep.Errf(p, rule, "%s %q must declare exactly one required string slot to receive the free-text utterance", what, in)
	}
}

// importedIntent is the child intent an imports.<alias>.intents.import
// entry lifts into st under its own name.
func importedIntent(st *story.Story, name string) *story.Intent {
	for _, a := range st.ImportOrder {
		im := st.Imports[a]
		if im == nil || im.Child == nil || !slices.Contains(im.ImportIntent, name) {
			continue
		}
		if in := im.Child.Intents[name]; in != nil {
			return in
		}
		if in := liftedIntent(im.Child, name); in != nil {
			return in
		}
	}
	return nil
}
