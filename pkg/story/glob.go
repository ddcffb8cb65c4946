package story

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// maxGlobEntries bounds the directory entries one include: glob looks at:
// symlinks to a directory above make a pattern name exponentially many paths.
const maxGlobEntries = 100_000

// errGlobTooWide is globIn's error past maxGlobEntries.
var errGlobTooWide = fmt.Errorf("it looks at more than %d directory entries (a symlink loop, or a pattern too wide); narrow the pattern", maxGlobEntries)

// maxGlobLooks bounds the directory entries the patterns of one include:
// list look at together: 2,000 patterns over one directory of 20,000
// files matched 40 million names (and listed the directory 2,000 times).
const maxGlobLooks = 1_000_000

// errGlobsTooMany is a globber's error past maxGlobLooks.
var errGlobsTooMany = fmt.Errorf("the include: patterns together look at more than %d directory entries (each pattern is matched against every entry of the directories it lists); list fewer patterns, or the files themselves", maxGlobLooks)

// globIn is filepath.Glob of pattern that lists directories through root
// only: a directory reached through a symlink leading out is never listed
// (its path is in outside), and at most maxGlobEntries entries are looked
// at (errGlobTooWide). Matches are in lexical order per directory.
func globIn(root *safefile.Root, pattern string) (matches, outside []string, err error) {
	return newGlobber(root).in(pattern)
}

// globber globs the patterns of one include: list, listing each directory
// once and counting what they look at together.
type globber struct {
	root    *safefile.Root
	entries int // of the pattern being globbed
	looks   int // of every pattern
	listed  map[string][]fs.DirEntry
	out     map[string]bool // listed directories reached through a link leading out
	outside []string
}

func newGlobber(root *safefile.Root) *globber {
	return &globber{root: root, listed: map[string][]fs.DirEntry{}, out: map[string]bool{}}
}

// in is [globIn] of one pattern with g's listings and budget.
func (g *globber) in(pattern string) (matches, outside []string, err error) {
	g.entries, g.outside = 0, nil
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, nil, err
	}
	matches, err = g.glob(pattern)
	return matches, g.outside, err
}

// list is the entries of the directory d, read once.
func (g *globber) list(d string) ([]fs.DirEntry, bool) {
	if ents, ok := g.listed[d]; ok || g.out[d] {
		return ents, !g.out[d]
	}
	limit := max(maxGlobEntries-g.entries, 1)
	ents, err := g.root.ReadDir(globAbs(d), limit)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		g.out[d] = true
		return nil, false
	}
	if len(ents) <= limit { // whole: a listing cut at the limit is not kept
		g.listed[d] = ents
	}
	return ents, true
}

// HasGlobMeta reports whether p holds a character [filepath.Match] reads
// as a pattern (*, ?, [ or a backslash): without one p matches itself alone.
func HasGlobMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

func (g *globber) glob(pattern string) ([]string, error) {
	if !HasGlobMeta(pattern) {
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
	if HasGlobMeta(dir) {
		var err error
		if dirs, err = g.glob(dir); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, d := range dirs {
		ents, ok := g.list(d)
		if !ok {
			g.outside = append(g.outside, d)
			continue
		}
		g.entries += len(ents)
		if g.entries > maxGlobEntries {
			return nil, errGlobTooWide
		}
		if g.looks += len(ents); g.looks > maxGlobLooks {
			return nil, errGlobsTooMany
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
	if !HasGlobMeta(p) {
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
