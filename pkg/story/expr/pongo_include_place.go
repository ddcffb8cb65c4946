package expr

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// refusal is why the loader refused an include, extends or import target,
// and the template that named it, so the error can point at the tag.
type refusal struct {
	at   namedAt
	what string // `template path "x" is refused: why`
}

// includeLink is one literal include, extends or import tag: the file
// that holds it ("<string>" for the compiled string), where, and the
// name as written.
type includeLink struct {
	file      string
	line, col int
	name      string
}

// placeRefusal returns ge, the refusal of a target while compiling top
// (src its text), pointing at the tag that named the target: its file,
// line and column, then each tag that included that file from top,
// innermost first. Line and Col are set to the first tag's place in src.
// A tag it cannot find (a name held in a variable) leaves ge as it was.
func (l *PongoLoader) placeRefusal(top, src string, ge *Error) *Error {
	l.mu.Lock()
	r, ok := l.refusedBy[ge]
	l.mu.Unlock()
	if !ok {
		return ge
	}
	topAbs := top
	if top != "<string>" {
		if abs, err := filepath.Abs(top); err == nil {
			topAbs = abs
		}
	}
	base := r.at.base
	if base == "" {
		base = "<string>"
	}
	chain := l.includeChain(topAbs, src, base, r.at.name)
	if len(chain) == 0 {
		return ge
	}
	places := make([]string, len(chain))
	for i, k := range chain {
		file := k.file
		if i == 0 && file == topAbs {
			file = top // as the caller named it
		}
		places[len(chain)-1-i] = fmt.Sprintf("%s:%d:%d", file, k.line, k.col)
	}
	where := places[0]
	if len(places) > 1 {
		where += " (included from " + strings.Join(places[1:], ", included from ") + ")"
	}
	placed := *ge
	placed.Msg = "pongo2 " + where + ": " + r.what
	placed.Src, placed.Line, placed.Col = src, chain[0].line, chain[0].col
	return &placed
}

// includeChain finds the literal tags leading from top (src its text) to
// the tag naming name in base: the first in top, the last in base. It
// follows the files the loader would read, at most maxIncludeFiles, and
// returns nil when no literal chain leads there.
func (l *PongoLoader) includeChain(top, src, base, name string) []includeLink {
	type node struct {
		file, src string
		path      []includeLink
	}
	queue := []node{{file: top, src: src}}
	seen := map[string]bool{top: true}
	for files := 0; len(queue) > 0 && files <= maxIncludeFiles; files++ {
		n := queue[0]
		queue = queue[1:]
		for _, k := range literalIncludeTags(n.file, n.src) {
			path := append(n.path[:len(n.path):len(n.path)], k)
			if n.file == base && k.name == name {
				return path
			}
			if len(path) > maxIncludeDepth {
				continue
			}
			l.mu.Lock()
			p := l.resolve(n.file, k.name)
			inside := l.insideRoots(p)
			roots := l.readRoots()
			l.mu.Unlock()
			if seen[p] || !inside {
				continue
			}
			seen[p] = true
			b, err := readTemplate(p, roots)
			if err != nil {
				continue
			}
			queue = append(queue, node{file: p, src: string(b), path: path})
		}
	}
	return nil
}

// literalIncludeTags lists the literal include, extends and import tags of
// src, the text of file, with their 1-based line and rune column.
func literalIncludeTags(file, src string) []includeLink {
	if !strings.Contains(src, "{%") {
		return nil
	}
	var out []includeLink
	for _, m := range includeRe.Get().FindAllStringSubmatchIndex(src, -1) {
		var name string
		if m[2] >= 0 {
			name = src[m[2]:m[3]]
		} else if m[4] >= 0 {
			name = src[m[4]:m[5]]
		}
		if name == "" {
			continue
		}
		before := src[:m[0]]
		line := strings.Count(before, "\n") + 1
		col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
		out = append(out, includeLink{file: file, line: line, col: col, name: name})
	}
	return out
}
