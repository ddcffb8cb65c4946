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
// effects[1]:` (conformance probes: hunt118). The position still names the
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

// foldedPlace is msg with its leading `state "P"` (and the ` intent "I"`
// after it) named as the fold names them, and the `on state "P"'s on:
// arcs` of an undeclared emit_intent with it.
func foldedPlace(st *story.Story, prefix, msg string) string {
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
