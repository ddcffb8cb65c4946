package expr

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
)

// pongo2 compiles a literal include / extends / import target with no depth
// limit, so a self-including template overflows the Go stack. The loader
// follows literal names first and refuses a cycle or a chain deeper than
// maxIncludeDepth.
const (
	maxIncludeDepth = 32
	maxIncludeFiles = 512
)

// includeRe is a literal include, extends or import target (group 1 or 2).
var includeRe = &lazyre.Regexp{Expr: `\{%-?\s*(?:include|extends|import)\s+(?:"([^"]*)"|'([^']*)')`}

// checkIncludeCycle walks the literal include graph of src and returns an
// *Error naming the chain when it loops or is too deep.
func (l *PongoLoader) checkIncludeCycle(name, src string) *Error {
	if !strings.Contains(src, "{%") {
		return nil
	}
	files := 0
	var seen []string // the files read, each followed from here
	var walk func(file, src string, chain []string) *Error
	walk = func(file, src string, chain []string) *Error {
		if len(chain) > maxIncludeDepth {
			return &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: templates include each other more than %d deep (%s); break the chain", name, maxIncludeDepth, strings.Join(chain, " -> "))}
		}
		for _, m := range includeRe.FindAllStringSubmatch(src, -1) {
			inc := m[1] + m[2]
			if inc == "" {
				continue
			}
			p := l.resolve(file, inc)
			if p == "" {
				continue
			}
			if slices.Contains(chain, p) {
				return &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s includes itself (%s -> %s): it would recurse for ever; break the cycle", name, strings.Join(chain, " -> "), p)}
			}
			if files++; files > maxIncludeFiles {
				return &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: includes more than %d files; simplify the layout", name, maxIncludeFiles)}
			}
			if !l.insideRoots(p) {
				continue // the loader refuses it when pongo2 asks
			}
			b, err := readTemplate(p, l.readRoots())
			if err != nil {
				continue // reported when pongo2 asks for it
			}
			seen = append(seen, p)
			if e := walk(p, string(b), append(slices.Clip(chain), p)); e != nil {
				return e
			}
		}
		return nil
	}
	if e := walk(name, src, []string{name}); e != nil {
		return e
	}
	// every file below name is checked here: Get need not follow them again
	l.mu.Lock()
	l.followed[name] = true
	for _, p := range seen {
		l.followed[p] = true
	}
	l.mu.Unlock()
	return nil
}
