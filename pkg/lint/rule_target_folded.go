package lint

import (
	"fmt"
	"kitsoki/internal/yamlnode"
	"strings"

	"kitsoki/pkg/story"
)

// foldedAbsolute reports whether target, written in an imported child, is
// a dotted absolute path, which the fold keeps as written, so it names a
// state of the top story's folded tree (story-runtime.md §6.2).
func foldedAbsolute(st *story.Story, target string) bool {
	t := strings.TrimSpace(target)
	if !st.Imported() || st.Importer() == nil || t == "" || strings.HasPrefix(t, ".") ||
		strings.HasPrefix(t, "@exit:") || story.IsTemplated(t) {
		return false
	}
	return strings.ContainsAny(t, "./")
}

// foldedTop is the story at the top of st's import chain.
func foldedTop(st *story.Story) *story.Story {
	for i := 0; st.Importer() != nil && i < 64; i++ {
		st = st.Importer()
	}
	return st
}

// inFolded reports whether the dotted path names a state of st's tree
// with its imports folded in, and phases: expanded at every level
// (rule_target_folded_phases.go).
func (l *sources) inFolded(st *story.Story, path string, depth int) bool {
	if st == nil || depth > 64 {
		return false
	}
	return l.inFoldedAs(st, path, depth) || l.inFoldedAs(l.phasedView(st), path, depth)
}

// inFoldedAs is inFolded with st's states as they are.
func (l *sources) inFoldedAs(st *story.Story, path string, depth int) bool {
	if st == nil {
		return false
	}
	if s := st.State(path); s != nil && s.Import == nil {
		return true
	}
	head, rest, more := strings.Cut(path, ".")
	w := st.State(head)
	if w == nil || w.Import == nil {
		return false
	}
	if !more {
		return true // the wrapper itself
	}
	return l.inFolded(w.Import.Child, rest, depth+1)
}

// foldedPrefix is the path st's own states have in the top story's folded
// tree ("kid", "kid.g"); "" when st is not imported.
func foldedPrefix(st *story.Story) string {
	var segs []string
	for i := 0; st.Importer() != nil && i < 64; i, st = i+1, st.Importer() {
		if alias := importAlias(st); alias != "" {
			segs = append([]string{alias}, segs...)
		}
	}
	return strings.Join(segs, ".")
}

// foldedSuggestion is the folded spelling of a child's own dotted path
// (grp.l1 → `kid.grp.l1`), "" when that names no state either.
func (l *sources) foldedSuggestion(st *story.Story, path string) string {
	if p := foldedPrefix(st); p != "" && l.inFolded(foldedTop(st), p+"."+path, 0) {
		return p + "." + path
	}
	return ""
}

// spelled is how a target resolved against the state path from names
// this story's own state path so that it loads: the path itself in a story
// that is not imported; in an imported one a bare name for a top-level
// state (the fold makes it relative at any depth), else the "../" chain
// from from, which the fold keeps and which names the same state when the
// story runs on its own too; the folded path (`kid.grp.l2`) when the chain
// climbs more than maxClimb segments (the fold's depth check: one `..` per
// level of the declaring state, plus one; -1 for a timeout.target, which
// is looked up as written, so only the folded path names a state).
func spelled(st *story.Story, from, path string, maxClimb int) string {
	if !st.Imported() || from == "" || maxClimb >= 0 && !strings.Contains(path, ".") {
		return path
	}
	fs, ts := strings.Split(from, "."), strings.Split(path, ".")
	common := 0
	for common < len(fs) && common < len(ts)-1 && fs[common] == ts[common] {
		common++
	}
	if common == len(fs) { // below from: climb out of from and back in
		common--
	}
	if len(fs)-common <= maxClimb {
		return strings.Repeat("../", len(fs)-common) + strings.Join(ts[common:], "/")
	}
	if p := foldedPrefix(st); p != "" {
		return p + "." + path
	}
	return path
}

// spelledFrom is spelled for a target resolved against the state s that
// declares it.
func spelledFrom(st *story.Story, s *story.State, path string) string {
	if s == nil {
		return path
	}
	return spelled(st, s.Path, path, depthOf(s)+1)
}

// depthOf is the nesting depth of s in its story (0: top level), the depth
// the fold's depth check counts from.
func depthOf(s *story.State) int {
	return strings.Count(s.Path, ".")
}

// foldedFix is the fix for a dotted target of an imported story that names
// no state of the folded tree (path, slashes made dots), resolved against
// the state path from (maxClimb: spelled): the spelling of this story's
// own state at path, or of the one nearest it, that loads.
func (c *checker) foldedFix(decl *story.State, from string, maxClimb int, path string) string {
	if c.st.State(path) != nil {
		fix := yamlnode.Meant(spelled(c.st, from, path, maxClimb))
		if sug := c.src.foldedSuggestion(c.st, path); sug != "" && fix != yamlnode.Meant(sug) {
			fix += fmt.Sprintf(" (`%s` names it too, under this alias only)", sug)
		}
		return fix
	}
	if sug := c.nearState(decl, path, lastSegment(path)); sug != "" {
		return yamlnode.Meant(spelled(c.st, from, sug, maxClimb))
	}
	return "name this story's own states with a ../ path from here (each ../ climbs one level), or a top-level one by its bare name"
}

// lastSegment is the last segment of a state path ("l2" of "grp.l2").
func lastSegment(path string) string {
	if i := strings.LastIndexAny(path, ".|#"); i >= 0 {
		return path[i+1:]
	}
	return path
}
