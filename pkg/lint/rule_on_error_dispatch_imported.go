package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// importedDispatchClimb reports an imported story's bare or "../"
// on_error that, folded, names another state than this story's own from a
// dispatch state of another depth than the declaring state's: the fold
// writes a bare x as "../" × (depth+1) + x from the declaring state and
// keeps a "../" chain as written, and both engines climb it from the
// dispatch state in the top story's tree (a transition's destination, a
// compound's initial leaf), so it can climb out of this story into the
// importer's, or stop inside a compound (probed: the bare z,
// and ../../z, of kid's g.c dispatched at y name the importer's z; a
// compound h's bare z dispatched at h.c names kid.h.z). It reports true
// when it has warned.
func (c *checker) importedDispatchClimb(e *story.Effect, site effSite, target string) bool {
	l, ok := c.importedDispatchLanding(site, target)
	if !ok {
		return false
	}
	prefix := foldedPrefix(c.st)
	what := "names no state there: the redirect is dropped and the turn rests where the call was made"
	if c.src.inFolded(foldedTop(c.st), l.lands, 0) {
		what = "names the importing story's `" + l.lands + "`"
		if strings.HasPrefix(l.lands, prefix+".") {
			what = "names this story's `" + strings.TrimPrefix(l.lands, prefix+".") + "`"
		}
	}
	fix := fmt.Sprintf("name the state by its folded path (`%s.%s`, under this alias only)", prefix, l.meant)
	if up := strings.Repeat("../", depthOf(c.st.State(l.base))+1) + strings.ReplaceAll(l.meant, ".", "/"); story.Climbs(up) <= depthOf(site.State)+1 && c.sameDepth(site, l.base) {
		fix = fmt.Sprintf("write %q, which names it from %q here and once imported, or %s", up, l.base, fix)
	}
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is folded under this story's alias to %q, and both engines climb that from the dispatch state %q, so it %s, not this story's `%s`; %s", site.String(), target, l.folded, prefix+"."+l.base, what, l.meant, fix)
	return true
}

// dispatchLanding is where an imported story's on_error lands once folded,
// climbed from a dispatch state, against what it names in the story alone.
type dispatchLanding struct {
	base   string // the dispatch state, this story's own path
	folded string // the target as the fold writes it
	meant  string // this story's state it names in the story alone
	lands  string // the folded path both engines climb to
}

// importedDispatchLanding is the first dispatch state of the call at
// site from which the imported story's bare or "../" on_error target,
// folded, lands elsewhere than on this story's state it names alone;
// ok is false where none does (or in a parallel configuration, at an exit, or
// where the target names no state here: other checks say so).
func (c *checker) importedDispatchLanding(site effSite, target string) (l dispatchLanding, ok bool) {
	if !c.st.Imported() || site.State == nil || !strings.HasPrefix(target, "..") && strings.ContainsAny(target, "./") {
		return l, false
	}
	l.folded = target
	if !strings.HasPrefix(target, "..") {
		l.folded = strings.Repeat("../", depthOf(site.State)+1) + target
	}
	prefix := foldedPrefix(c.st)
	for _, base := range c.dispatchStates(site) {
		if strings.ContainsAny(base, "#") || strings.HasPrefix(base, "__exit__") {
			continue
		}
		meant, _ := story.ClimbPath(base, target) // clamped at this story's top
		if c.st.State(meant) == nil {
			continue // dangling here: onErrorDangles' to report
		}
		if lands, _ := story.ClimbPath(prefix+"."+base, l.folded); lands != prefix+"."+meant {
			l.base, l.meant, l.lands = base, meant, lands
			return l, true
		}
	}
	return l, false
}

// sameDepth reports whether every dispatch state of site (outside
// parallel states and exits) is as deep as base, so one "../" chain names
// the same state from each.
func (c *checker) sameDepth(site effSite, base string) bool {
	for _, b := range c.dispatchStates(site) {
		if strings.Count(b, ".") != strings.Count(base, ".") {
			return false
		}
	}
	return true
}
