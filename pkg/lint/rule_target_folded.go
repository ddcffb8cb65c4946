package lint

import (
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
// with its imports folded in.
func inFolded(st *story.Story, path string, depth int) bool {
	if st == nil || depth > 64 {
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
	return inFolded(w.Import.Child, rest, depth+1)
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
func foldedSuggestion(st *story.Story, path string) string {
	if p := foldedPrefix(st); p != "" && inFolded(foldedTop(st), p+"."+path, 0) {
		return p + "." + path
	}
	return ""
}
