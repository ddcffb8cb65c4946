package story

import (
	"os"
	"path/filepath"
	"strings"
)

// PromptRoots returns the directories prompt files may be read from: the
// story directory, its prompts overlay and shared directories, and the
// same roots of every imported child (recursively). Paths are absolute.
func (st *Story) PromptRoots() []string {
	var out []string
	seen := map[*Story]bool{}
	var walk func(s *Story)
	walk = func(s *Story) {
		if s == nil || seen[s] || s.Dir == "" {
			return
		}
		seen[s] = true
		add := func(d string) {
			if !filepath.IsAbs(d) {
				d = filepath.Join(s.Dir, d)
			}
			if abs, err := filepath.Abs(d); err == nil {
				d = abs
			}
			for _, o := range out {
				if o == d {
					return
				}
			}
			out = append(out, d)
		}
		add(s.Dir)
		if pc := s.Prompts; pc != nil {
			if strings.TrimSpace(pc.Overlay) != "" {
				add(pc.Overlay)
			}
			for _, d := range pc.Shared {
				add(d)
			}
		}
		for _, name := range sortedMapKeys(s.Imports) {
			if im := s.Imports[name]; im != nil {
				walk(im.Child)
			}
		}
	}
	walk(st)
	return out
}

// Confined reports whether the absolute path p lies inside one of roots,
// both as written and after resolving symlinks (of p and of the roots): a
// symlink inside a root that points outside it is outside.
func Confined(p string, roots []string) bool {
	return (&confiner{roots: roots}).confined(p)
}

// confiner answers Confined for one list of roots, resolving the roots'
// symlinks once for all the paths it is asked about.
type confiner struct {
	roots    []string
	resolved []string // EvalSymlinks of each root (the root itself when it fails)
	// shared: the confiner answers for many paths, so it also keeps the
	// resolved directories of the paths (dirs).
	shared bool
	dirs   map[string]string
}

// newConfiner returns a confiner for many paths under roots.
func newConfiner(roots []string) *confiner { return &confiner{roots: roots, shared: true} }

func (c *confiner) confined(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	p = filepath.Clean(p)
	real, fast := "", false
	if c.shared {
		real, fast = c.evalFast(p)
	}
	if !fast {
		real = p
		if r, err := filepath.EvalSymlinks(p); err == nil {
			real = r
		} else if !os.IsNotExist(err) {
			return false
		}
	}
	if c.resolved == nil {
		c.resolved = make([]string, len(c.roots))
		for i, root := range c.roots {
			c.resolved[i] = root
			if r, err := filepath.EvalSymlinks(root); err == nil {
				c.resolved[i] = r
			}
		}
	}
	lexical, resolved := false, false
	for i, root := range c.roots {
		if within(root, p) {
			lexical = true
		}
		if within(c.resolved[i], real) || within(root, real) {
			resolved = true
		}
	}
	return lexical && resolved
}

// evalFast is filepath.EvalSymlinks(p) for the common case, with the
// directory of p resolved once for all its files: p exists and is no
// symlink, and its directory resolves. ok is false otherwise (the caller
// resolves p in full, errors and links included).
func (c *confiner) evalFast(p string) (string, bool) {
	dir, base := filepath.Split(p)
	if base == "" {
		return "", false
	}
	rdir, done := c.dirs[dir]
	if !done {
		r, err := filepath.EvalSymlinks(dir)
		if err != nil {
			r = ""
		}
		if c.dirs == nil {
			c.dirs = map[string]string{}
		}
		c.dirs[dir], rdir = r, r
	}
	if rdir == "" {
		return "", false
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return "", false
	}
	return filepath.Join(rdir, base), true
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
