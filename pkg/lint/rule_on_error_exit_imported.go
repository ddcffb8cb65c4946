package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// exitLanding is where an imported story's on_error, dispatched at the
// exit its state's on_enter hop took, names once folded.
type exitLanding struct {
	exit, emit string // the exit taken, and the emit_intent that took it
	renders    string // the name a templated emit renders to take it
	mapped     string // how the importing stories map the exit
	base       string // the dispatch state in the top story's folded tree
	folded     string // the target as the fold writes it
	meant      string // this story's state the target names written here
	lands      string // the folded path it climbs to ("" at the top)
}

// importedExitLanding follows a bare or "../" on_error written at site in
// the imported story st whose call is dispatched at the exit a leaf's
// on_enter hop took (exitHop): the fold writes a bare x as "../" ×
// (depth+1) + x, and both engines climb it from where the importing
// stories map the exit (__exit__NAME at the top, or the state an
// exits.NAME.to names; conformance exit-redirect-climb-imported,
// -grandchild, on-error-climb-above-top). ok is false where the call is
// not dispatched at an exit or the mapping is not known.
func importedExitLanding(st *story.Story, site effSite, target string) (l exitLanding, ok bool) {
	if !st.Imported() || site.State == nil || !strings.HasPrefix(target, "..") && strings.ContainsAny(target, "./") {
		return l, false
	}
	l.exit, l.emit = exitHop(site)
	if l.exit == "" {
		l.exit, l.emit, l.renders = mayExitHop(site)
	}
	if l.exit == "" || nearest(site.State, func(s *story.State) bool { return s.Parallel }) != nil {
		return l, false
	}
	if l.base, l.mapped, ok = importedExitBase(st, l.exit); !ok {
		return l, false
	}
	l.folded = target
	if !strings.HasPrefix(target, "..") {
		l.folded = strings.Repeat("../", depthOf(site.State)+1) + target
	}
	meant, _ := story.ClimbPath(site.State.Path, target)
	l.meant = foldedPrefix(st) + "." + meant
	l.lands, _ = story.ClimbPath(l.base, l.folded)
	return l, true
}

// importedExitClimb reports an imported story's on_error that
// importedExitLanding finds naming another state than this story's own,
// or none. It reports true when it has judged the target.
func (c *checker) importedExitClimb(e *story.Effect, site effSite, target string) bool {
	l, ok := importedExitLanding(c.st, site, target)
	if !ok {
		return false
	}
	if l.lands == l.meant {
		return true
	}
	what := "names no state there: the redirect is dropped and the session rests on the exit"
	if l.lands != "" && c.src.inFolded(foldedTop(c.st), l.lands, 0) {
		what = "names the importing story's `" + l.lands + "`"
	}
	emit := fmt.Sprintf("emit_intent %q takes @exit:%s", l.emit, l.exit)
	if l.renders != "" {
		emit = fmt.Sprintf("emit_intent %q, where it renders %q, takes @exit:%s", l.emit, l.renders, l.exit)
	}
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is dispatched at the exit: %s before any call of the state is dispatched, which the importing story maps to %s; the fold writes it as %q, and both engines climb that from %q, so it %s, not this story's `%s`; name the state by its folded path (`%s`, under this alias only), or make the call in a state whose on_enter takes no exit", site.String(), target, emit, l.mapped, l.folded, l.base, what, l.meant, l.meant)
	return true
}

// importedExitBase is the state path of the top story's folded tree a
// session rests on after the imported story st takes @exit:exit,
// following each importer's exits.NAME.to: "__exit__NAME" when the top
// story's own exit is reached, else a state with no children that an
// importer maps it to. mapped says how; ok is false where a mapping is
// missing, templated or lands on a compound or an import.
func importedExitBase(st *story.Story, exit string) (base, mapped string, ok bool) {
	name := exit
	for i := 0; i < 64; i++ {
		parent := st.Importer()
		var im *story.Import
		if parent != nil {
			im = parent.Imports[importAlias(st)]
		}
		if im == nil || im.Exits[name] == nil {
			return "", "", false
		}
		to := strings.TrimSpace(im.Exits[name].To)
		if x, isExit := strings.CutPrefix(to, "@exit:"); isExit {
			if !parent.Imported() {
				return "__exit__" + x, "the top story's exit @exit:" + x, true
			}
			st, name = parent, x
			continue
		}
		if to == "" || story.IsTemplated(to) || strings.HasPrefix(to, ".") || parent.Imported() && strings.ContainsAny(to, "./") {
			return "", "", false
		}
		own := strings.ReplaceAll(to, "/", ".")
		if s := parent.State(own); s == nil || len(s.Children) > 0 || s.Import != nil {
			return "", "", false
		}
		path := own
		if parent.Imported() {
			path = foldedPrefix(parent) + "." + own
		}
		return path, "its state `" + path + "`", true
	}
	return "", "", false
}
