package lint

import (
	"slices"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// lookupIntent is the one intent lookup every rule uses: the intent name
// as seen from state s once upstream's fold has run, or nil.
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

// intentKnown reports whether name is declared as seen from s, or lifted
// from a child not loaded here.
func (c *checker) intentKnown(s *story.State, name string, ancestors bool) bool {
	if c.lookupIntent(s, name, ancestors) != nil || lifted(c.st, "intent", name) {
		return true
	}
	// an intents.import whose child intent is missing is the imports rule's
	return slices.ContainsFunc(c.st.ImportOrder, func(a string) bool { return slices.Contains(c.st.Imports[a].ImportIntent, name) })
}

// checkArcIntent checks intent in, named at p by what (which starts with
// the place at names), as seen from s: s has an on: arc for it, it is
// declared and, with freeText, it declares exactly one required string
// slot.
func (c *checker) checkArcIntent(s *story.State, p story.Pos, rule *Rule, at diag.Place, what, arcIn, in string, freeText bool) {
	if !s.HasOn(in) {
		c.rep.ErrAt(p, at, rule, "%s %q has no matching on: arc %s", what, in, arcIn)
	}
	if decl := c.lookupIntent(s, in, true); decl == nil {
		c.rep.ErrAt(p, at, rule, "%s %q is not a declared intent", what, in)
	} else if miss := freeTextMiss(decl); freeText && miss != "" {
		c.rep.ErrAt(p, at, rule, "%s %q must declare exactly one required string slot to receive the free-text utterance; %s", what, in, miss)
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
