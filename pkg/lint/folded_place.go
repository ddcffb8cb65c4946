package lint

import (
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// foldPlaces rewrites the place an error found in the imported child st
// starts with into the names of the folded story, as upstream words it: it
// checks the child once the fold has put it into its importer, so `state
// "a" intent "go2" effects[1]:` reads `state "kid.a" intent "kid__go2"
// effects[1]:` (TestParsePlaceGolden, pkg/story/testdata/imported-place). The position still names the
// child's own file and line; warnings, which are kitsoki's own, keep the
// child's names. A child imported under more than one alias is named
// under the first, as upstream's report names it first.
func foldPlaces(st *story.Story, ds []diag.Diagnostic) {
	prefix := foldedPrefix(st)
	if prefix == "" {
		return
	}
	for i := range ds {
		if ds[i].Severity == diag.Error {
			ds[i].Message = foldedPlace(st, prefix, ds[i].Message)
		}
	}
}

// foldLoadPlaces is foldPlaces for the load's own errors (pkg/story's,
// found while parsing): each one in a file of an imported child is named
// as the fold names it. A child's file is its story file (the first
// alias's, as foldPlaces); one it includes keeps the child's own names.
func foldLoadPlaces(st *story.Story, ds []diag.Diagnostic) {
	owner := map[string]*story.Story{}
	for _, c := range st.Children() {
		if owner[c.File] == nil {
			owner[c.File] = c
		}
	}
	for i := range ds {
		if c := owner[ds[i].File]; c != nil && ds[i].Severity == diag.Error {
			ds[i].Message = foldedPlace(c, foldedPrefix(c), ds[i].Message)
		}
	}
}

// foldedPlace is msg with its leading `state "P"` (and the ` intent "I"`
// after it), or its leading `intent "I"`, named as the fold names them,
// and the `on state "P"'s on: arcs` of an undeclared emit_intent with it.
func foldedPlace(st *story.Story, prefix, msg string) string {
	if prefix == "" {
		return msg
	}
	if intent, rest, ok := cutQuoted(msg, "intent "); ok {
		return "intent " + strconv.Quote(foldedIntent(st, intent)) + rest
	}
	path, rest, ok := cutQuoted(msg, "state ")
	if !ok {
		return msg
	}
	folded := prefix + "." + path
	var b strings.Builder
	b.WriteString("state " + strconv.Quote(folded))
	if intent, after, ok := cutQuoted(rest, " intent "); ok {
		b.WriteString(" intent " + strconv.Quote(foldedIntent(st, intent)))
		rest = after
	}
	own := "state " + strconv.Quote(path) + "'s on: arcs"
	b.WriteString(strings.Replace(rest, own, "state "+strconv.Quote(folded)+"'s on: arcs", 1))
	return b.String()
}

// foldedSite is an effect's place (`state "a" intent "go2" effects[0]`)
// named as the fold names it when st is imported, for a message that
// names it after its start.
func foldedSite(st *story.Story, site string) string {
	if p := foldedPrefix(st); p != "" {
		return foldedPlace(st, p, site)
	}
	return site
}

// cutQuoted reads lead followed by a Go-quoted string at the start of s:
// the string and what follows it.
func cutQuoted(s, lead string) (name, rest string, ok bool) {
	after, ok := strings.CutPrefix(s, lead)
	if !ok {
		return "", s, false
	}
	q, err := strconv.QuotedPrefix(after)
	if err != nil {
		return "", s, false
	}
	name, err = strconv.Unquote(q)
	if err != nil {
		return "", s, false
	}
	return name, after[len(q):], true
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
