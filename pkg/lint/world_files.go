package lint

import (
	"bytes"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// files records the reads of the pongo2 files the story names (layouts,
// template_file:, prompt files) and of the files they include, each once,
// placed in the file; one that cannot be read or compiled is left to the
// other rules.
func (wk *worldKeyCheck) files() {
	c := wk.c
	add := func(kind compileKind, f string, named story.Pos) {
		if wk.seen[f] {
			return
		}
		wk.seen[f] = true
		src, err := c.readStory(f)
		if err != nil || !bytes.Contains(src, []byte("world")) && !bytes.Contains(src, []byte("{%")) {
			return
		}
		if wk.pc.checkFile(kind, f, src) != nil {
			return
		}
		ld := wk.loader(kind)
		name := c.displayPath(f)
		text := string(src)
		if wk.fileReads(f, text, func() string { return "template file " + name + " (named at " + named.String() + ")" }) {
			wk.follow(ld, f, text, name+", named at "+named.String(), 1)
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
				add(compiledPongoView, filepath.Join(c.st.Dir, "views", file), v.Pos)
			}
		})
	}
	c.eachFileRef(func(e *story.Effect, site effSite, ref fileRef) {
		if c.expanded && (site.State == nil || !wk.keep(site.State)) {
			return
		}
		if f, ok := c.existing(ref.path); ok && ref.isFile && !ref.schema {
			add(compiledPongo, f, e.WithPos(ref.key))
		}
	})
}

// fileReads records the world reads of src, the template file f, placed
// in it, described by where; false when src may bind the name world (its
// reads, and its includes', are not world's).
func (wk *worldKeyCheck) fileReads(f, src string, where func() string) bool {
	if wk.texts != nil {
		wk.texts(src, story.Pos{File: wk.c.displayPath(f)}, true, where)
	}
	if !strings.Contains(src, "world") {
		return true
	}
	keys, ok := pongoWorldKeys(src)
	if !ok {
		return false
	}
	name := wk.c.displayPath(f)
	for _, k := range keys {
		line, col := lineCol(src, keyOffset(src, k))
		wk.reads = append(wk.reads, worldRead{key: k, pos: story.Pos{File: name, Line: line, Col: col}, from: fromFile, where: where, state: wk.at})
	}
	return true
}

// loader is the story's template loader a source of kind compiles with
// (pongoCheck.loaderOf).
func (wk *worldKeyCheck) loader(kind compileKind) *expr.PongoLoader {
	return wk.pc.loaderOf(kind)
}

// includes records the reads of the files src, a template held in the
// story that compiles (where at p), includes, extends or imports.
func (wk *worldKeyCheck) includes(kind compileKind, src string, p story.Pos, where func() string) {
	if !strings.Contains(src, "{%") || !includeTagRe.MatchString(src) {
		return
	}
	if _, ok := wk.sourceKeys(kind, src); ok {
		wk.follow(wk.loader(kind), "", src, where()+" at "+p.String(), 1)
	}
}

// includeTagRe is a pongo2 include, extends or import tag (group 1)
// naming its file by a literal (group 2 or 3) and what follows the name
// up to the tag's end (group 4: with …, only).
var includeTagRe = &lazyre.Regexp{Expr: `\{%-?\s*(include|extends|import)\s+(?:"([^"]*)"|'([^']*)')((?:[^%"']|%[^}]|"[^"]*"|'[^']*')*)-?%\}`}

// worldArgRe is an include's with world=X (group 1: X up to a space or
// comma), onlyRe its only.
var (
	worldArgRe = &lazyre.Regexp{Expr: `(?:^|[\s,])world\s*=\s*([^=\s][^\s,]*)`}
	onlyRe     = &lazyre.Regexp{Expr: `(?:^|\s)only\s*$`}
)

// hidesWorld: an include's arguments (with …, only) hand the included file
// another world (with world=X) or none (only, with no world=world).
func hidesWorld(args string) bool {
	if m := worldArgRe.FindStringSubmatch(args); m != nil {
		return m[1] != "world"
	}
	return onlyRe.MatchString(args)
}

// Bounds on the include graph followed: as deep, and as many files, as
// the loader follows at compile time (pkg/story/expr).
const (
	maxWorldIncludeDepth = 32
	maxWorldIncludeFiles = 512
)

// follow records the reads of each file src (the template file base, ""
// for one held in the story) names in a literal include, extends or
// import, resolved and confined by ld as the engines resolve it, read
// through the story's root, each once, placed in the file itself and
// naming by, the file or place that includes it; then those files'
// includes, depth levels down at most. A name the loader refuses, a
// file missing or unreadable, and an include that hands the file no
// world (with world=…, only) are left (rule pongo reports the first two).
func (wk *worldKeyCheck) follow(ld *expr.PongoLoader, base, src, by string, depth int) {
	if depth > maxWorldIncludeDepth {
		return
	}
	for _, m := range includeTagRe.FindAllStringSubmatch(src, -1) {
		if hidesWorld(strings.TrimSpace(m[4])) {
			continue
		}
		f, ok := ld.Resolve(base, m[2]+m[3])
		if !ok || wk.seen[f] || len(wk.seen) >= maxWorldIncludeFiles {
			continue
		}
		wk.seen[f] = true
		b, err := wk.c.readStory(f)
		if err != nil {
			continue
		}
		text, name := string(b), wk.c.displayPath(f)
		verb := map[string]string{"include": "included", "extends": "extended", "import": "imported"}[m[1]]
		if wk.fileReads(f, text, func() string { return "template file " + name + " (" + verb + " by " + by + ")" }) {
			wk.follow(ld, f, text, name+", from "+by, depth+1)
		}
	}
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
