package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// foldPlaces names the place an error found in the imported child st
// starts with (its diag.Place, kept where the error was made) as upstream
// words it: it checks the child once the fold has put it into its
// importer, so `state "a" intent "go2" effects[1]:` reads `state "kid.a"
// intent "kid__go2" effects[1]:` (TestParsePlaceGolden,
// pkg/story/testdata/imported-place). The position and the Place still
// name the child's own file, line and names; warnings, which are
// kitsoki's own, keep the child's names in their message too. A child
// imported under more than one alias is named under the first, as
// upstream's report names it first.
func foldPlaces(st *story.Story, ds []diag.Diagnostic) {
	prefix := foldedPrefix(st)
	if prefix == "" {
		return
	}
	for i := range ds {
		d := &ds[i]
		// a message clipped inside its place (diag.ClipMessage) keeps it
		rest, whole := strings.CutPrefix(d.Message, d.Place.String())
		if d.Severity == diag.Error && !d.Place.IsZero() && whole {
			d.Message = foldedPlace(st, prefix, d.Place).String() + rest
		}
	}
}

// foldedPlace is the place p of st named as the fold names it, st's
// prefix (foldedPrefix) before its state path.
func foldedPlace(st *story.Story, prefix string, p diag.Place) diag.Place {
	return p.Renamed(func(path string) string { return prefix + "." + path }, func(in string) string { return foldedIntent(st, in) })
}

// foldedSite is the name of the effect place site (`state "a" intent
// "go2" effects[0]`) as the fold names it when st is imported, for a
// message that names it after its start.
func foldedSite(st *story.Story, site *story.EffectPlace) string {
	if prefix := foldedPrefix(st); prefix != "" {
		return renamedSite(site, foldedPlace(st, prefix, site.Place()))
	}
	return site.String()
}

// renamedSite is the name of the effect place site with the place it
// starts with (site.Place()) named as to names it.
func renamedSite(site *story.EffectPlace, to diag.Place) string {
	own, name := site.Place(), site.String()
	if own.IsZero() {
		return name
	}
	return to.String() + name[len(own.String()):]
}

// foldLoadPlaces is foldPlaces for the load's own errors (pkg/story's,
// found while parsing): each one in a file of an imported child, its
// story file or one it includes, is named as the fold names it (the
// first alias's, as foldPlaces).
func foldLoadPlaces(st *story.Story, ds []diag.Diagnostic) {
	owner := map[string]*story.Story{}
	for _, c := range st.Children() {
		for _, f := range c.Manifests {
			if owner[f] == nil {
				owner[f] = c
			}
		}
	}
	for i := range ds {
		if c := owner[ds[i].File]; c != nil {
			foldPlaces(c, ds[i:i+1])
		}
	}
}

// foldedState is the path state st's path names in the folded story.
func foldedState(st *story.Story, path string) string {
	if p := foldedPrefix(st); p != "" {
		return p + "." + path
	}
	return path
}

// foldedIntent is the name the intent st's arcs call name has in the top
// story: each level whose story declares it (or lifts it from a child of
// its own) prefixes it with its alias; an importer's intent a child uses
// keeps its name until the level that declares it.
func foldedIntent(st *story.Story, name string) string {
	for s := st; s.Importer() != nil; s = s.Importer() {
		if declares(s, "intent", name) || lifted(s, "intent", name) {
			name = importAlias(s) + "__" + name
		}
	}
	return name
}

// liftedName is the name upstream's fold gives a name st declares (an
// agent, a meta mode): <alias>__ at each level above it (`kid__rev`,
// `mid__kid__rev`); the name itself at the top.
func liftedName(st *story.Story, name string) string {
	if p := foldedPrefix(st); p != "" {
		return strings.ReplaceAll(p, ".", "__") + "__" + name
	}
	return name
}

// foldedProviders is the providers: a provider reference in st resolves
// against once folded: the top story's, as upstream's fold does not carry
// a child's providers: up (probed, TestProvidersResolveAtTheTop: a child's agent naming
// its own provider is refused at load, one naming the top story's loads).
func foldedProviders(st *story.Story) map[string]*story.Provider {
	return foldedTop(st).Providers
}

// eachFolded calls fn with st and, when children, every story its import
// tree folds into it, each with the prefix upstream's fold gives the names
// it declares ("", "kid__", "mid__deep__"); a child imported under two
// aliases is visited under both.
func eachFolded(st *story.Story, children bool, fn func(s *story.Story, prefix string)) {
	var walk func(s *story.Story, prefix string, depth int)
	walk = func(s *story.Story, prefix string, depth int) {
		fn(s, prefix)
		if !children || depth > 64 {
			return
		}
		for _, a := range s.ImportOrder {
			if im := s.Imports[a]; im != nil && im.Child != nil {
				walk(im.Child, prefix+a+"__", depth+1)
			}
		}
	}
	walk(st, "", 0)
}
