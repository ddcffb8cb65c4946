package story

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// maxGlobEntries bounds the directory entries one include: glob looks at:
// symlinks to a directory above make a pattern name exponentially many paths.
const maxGlobEntries = 100_000

// errGlobTooWide is globIn's error past maxGlobEntries.
var errGlobTooWide = fmt.Errorf("it looks at more than %d directory entries (a symlink loop, or a pattern too wide); narrow the pattern", maxGlobEntries)

// globIn is filepath.Glob of pattern that lists directories through root
// only: a directory reached through a symlink leading out is never listed
// (its path is in outside), and at most maxGlobEntries entries are looked
// at (errGlobTooWide). Matches are in lexical order per directory.
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

// globAbs is p made absolute against the working directory.
func globAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Glob is the listing include: uses (see globIn), for other readers.
func Glob(root *safefile.Root, pattern string) (matches, outside []string, err error) {
	return globIn(root, pattern)
}

// QuoteGlob returns p as a glob pattern that matches p alone.
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
