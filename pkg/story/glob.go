package story

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// maxGlobEntries bounds the directory entries one include: glob looks at.
// Symlinks to a directory above ("l -> .") make a pattern of a few
// segments name exponentially many paths; the bound turns that into an
// error at the include.
const maxGlobEntries = 100_000

// errGlobTooWide is globIn's error past maxGlobEntries.
var errGlobTooWide = fmt.Errorf("it looks at more than %d directory entries (a symlink loop, or a pattern too wide); narrow the pattern", maxGlobEntries)

// globIn is filepath.Glob of pattern (lexically inside root, relative to
// the working directory or absolute; matches are spelled as the pattern
// is), listing directories through root only: a directory reached through a
// symlink leading out of it is never listed (its path, as the pattern
// reached it, is in outside), and at most maxGlobEntries entries are
// looked at (errGlobTooWide). Symlinks that stay inside are followed, as
// filepath.Glob follows them. Matches are in lexical order per directory.
func globIn(root *safefile.Root, pattern string) (matches, outside []string, err error) {
	g := globber{root: root}
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, nil, err
	}
	matches, err = g.glob(pattern)
	return matches, g.outside, err
}

type globber struct {
	root    *safefile.Root
	entries int
	outside []string
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

func (g *globber) glob(pattern string) ([]string, error) {
	if !hasMeta(pattern) {
		if _, err := g.root.Stat(globAbs(pattern)); err != nil {
			if errors.Is(err, safefile.ErrOutsideRoot) {
				return []string{pattern}, nil // the caller's Stat refuses it, naming it
			}
			return nil, nil
		}
		return []string{pattern}, nil
	}
	dir, file := filepath.Split(pattern)
	dir = filepath.Clean(dir)
	dirs := []string{dir}
	if hasMeta(dir) {
		var err error
		if dirs, err = g.glob(dir); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, d := range dirs {
		ents, err := g.root.ReadDir(globAbs(d), maxGlobEntries-g.entries)
		if errors.Is(err, safefile.ErrOutsideRoot) {
			g.outside = append(g.outside, d)
			continue
		}
		g.entries += len(ents)
		if g.entries > maxGlobEntries {
			return nil, errGlobTooWide
		}
		for _, e := range ents { // sorted by name
			if ok, _ := filepath.Match(file, e.Name()); ok {
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out, nil
}

// globAbs is p made absolute against the working directory, as Root's
// methods take it.
func globAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Glob is the listing include: uses, for other readers of a project's
// files: filepath.Glob of pattern through root, never listing a directory
// reached through a symlink leading out of it (its path, as the pattern
// reached it, is in outside), with at most maxGlobEntries entries looked
// at.
func Glob(root *safefile.Root, pattern string) (matches, outside []string, err error) {
	return globIn(root, pattern)
}

// QuoteGlob returns p as a glob pattern that matches p alone: each of
// `*`, `?`, `[` and (outside Windows) `\` is put in a character class, so
// a story directory named `a[1]` or `x*` is looked in, not matched
// against. Join the pattern's own part after it.
func QuoteGlob(p string) string {
	if !hasMeta(p) {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '*' || r == '?' || r == '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		case r == '\\' && filepath.Separator != '\\':
			b.WriteString(`[\\]`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
