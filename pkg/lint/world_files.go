package lint

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// files records the reads of the pongo2 files the story names (layouts,
// template_file:, prompt files), each once, placed in the file; one that
// cannot be read or compiled is left to the other rules.
func (wk *worldKeyCheck) files() {
	c := wk.c
	seen := map[string]bool{}
	var loader *expr.PongoLoader
	add := func(f string, named story.Pos) {
		if seen[f] {
			return
		}
		seen[f] = true
		src, err := c.st.FileRoot().ReadFile(f, safefile.Story)
		if err != nil || !strings.Contains(string(src), "world") {
			return
		}
		if loader == nil {
			loader = (&pongoCheck{c: c}).loader()
		}
		if loader.CheckFileSource(f, src) != nil {
			return
		}
		keys, ok := pongoWorldKeys(string(src))
		if !ok {
			return
		}
		name := c.displayPath(f)
		for _, k := range keys {
			line, col := lineCol(string(src), keyOffset(string(src), k))
			wk.reads = append(wk.reads, worldRead{key: k, pos: story.Pos{File: name, Line: line, Col: col}, from: fromFile,
				where: func() string { return "template file " + name + " (named at " + named.String() + ")" }})
		}
	}
	for _, s := range c.states() {
		if !wk.keep(s) {
			continue
		}
		eachView(s, func(v *story.View, _ elemPlace) {
			file := v.TemplateFile
			if v.Kind == "extends" {
				file = v.Extends + ".pongo"
			}
			if (v.Kind == "extends" || v.Kind == "template_file") && !story.IsTemplated(file) && file != ".pongo" {
				add(filepath.Join(c.st.Dir, "views", file), v.Pos)
			}
		})
	}
	c.eachFileRef(func(e *story.Effect, site effSite, ref fileRef) {
		if c.expanded && (site.State == nil || !wk.keep(site.State)) {
			return
		}
		if f, ok := c.existing(ref.path); ok && ref.isFile && !ref.schema {
			add(f, e.WithPos(ref.key))
		}
	})
}

// lineCol is the 1-based line and rune column of byte offset off in src
// (1:1 for a negative offset).
func lineCol(src string, off int) (line, col int) {
	if off < 0 {
		return 1, 1
	}
	before := src[:off]
	last := before[strings.LastIndexByte(before, '\n')+1:]
	return strings.Count(before, "\n") + 1, utf8.RuneCountInString(last) + 1
}
