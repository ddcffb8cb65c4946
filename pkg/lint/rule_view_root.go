package lint

import (
	"path/filepath"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleViewRoot = &Rule{ID: "view-root", Severity: diag.Warning, LintOnly: true,
	Summary: "a grand-child's extends:/template_file: view is read from the top-level import's directory, as the existing engine reads it",
	Example: "imports: {kid: {source: ../child}}   # child imports ../gkid, whose state has view: {extends: base}"}

// checkViewRoot warns where a grand-child's view file is read from the
// top-level import's directory (docs/compat/fold.md "Per-alias view
// root"); only the top story runs it.
func checkViewRoot(c *checker) {
	if c.st.Imported() {
		return
	}
	for _, alias := range sortedMapKeys(c.st.Imports) {
		top := c.st.Imports[alias]
		if top.Child == nil {
			continue
		}
		viewRootBelow(c, alias, top.Child.Dir, top.Child, map[*story.Story]bool{})
	}
}

// viewRootBelow reports every file view of a story below st whose
// directory differs from rootDir, the top-level alias's.
func viewRootBelow(c *checker, alias, rootDir string, st *story.Story, seen map[*story.Story]bool) {
	if seen[st] {
		return
	}
	seen[st] = true
	for _, a := range sortedMapKeys(st.Imports) {
		im := st.Imports[a]
		if im.Child == nil {
			continue
		}
		if filepath.Clean(im.Child.Dir) != filepath.Clean(rootDir) {
			for _, s := range im.Child.AllStates() {
				v := s.View
				if v == nil || (v.Kind != "extends" && v.Kind != "template_file") {
					continue
				}
				file := v.TemplateFile
				if v.Kind == "extends" {
					file = filepath.Join("views", v.Extends+".pongo")
				}
				used, own := relTo(c.st.Dir, filepath.Join(rootDir, file)), relTo(c.st.Dir, filepath.Join(im.Child.Dir, file))
				c.rep.Warnf(v.Pos, ruleViewRoot,
					"state %q: this view's file is read from %s, not from this story's %s: the existing engine picks a view's directory by the top-level import (%q), and kitsoki does the same so fixtures agree; put the file there too (or give the layouts of both stories the same content)",
					s.Path, used, own, alias)
			}
		}
		viewRootBelow(c, alias, rootDir, im.Child, seen)
	}
}

// relTo spells p relative to dir when it can, as written under the story.
func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
