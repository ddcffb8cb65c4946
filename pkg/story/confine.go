package story

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
)

// ProjectRoot is the project root of a story whose manifest is in dir: the
// nearest directory at or above dir holding .git or a .kitsoki/ that
// marks a project ([HasKitsokiDir]), with marked true; else dir itself.
// Every file the story names must lie inside it.
func ProjectRoot(dir string) (root string, marked bool) {
	dir = filepath.Clean(dir)
	if d, ok := Above(dir, marksProject); ok {
		return d, true
	}
	return dir, false
}

// GitRoot is the nearest directory at or above dir holding .git; a
// .kitsoki/ alone does not mark it (SARIF URIs are relative to it).
func GitRoot(dir string) (root string, found bool) { return Above(dir, hasGit) }

// Above is the nearest of dir and its ancestors for which has holds.
func Above(dir string, has func(d string) bool) (root string, found bool) {
	for d := range Ancestors(dir) {
		if has(d) {
			return d, true
		}
	}
	return "", false
}

// Ancestors yields dir (cleaned) and each directory above it, nearest first.
func Ancestors(dir string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for d := filepath.Clean(dir); yield(d); {
			parent := filepath.Dir(d)
			if parent == d {
				return
			}
			d = parent
		}
	}
}

// hasGit and HasKitsokiDir look at the name, never through it: a .git or
// .kitsoki that is a symbolic link marks the root whether its target
// exists or not, so the root a repository gets (and what is outside it)
// tells nothing of the paths a link there names (red team 47).
func hasGit(d string) bool {
	_, err := os.Lstat(filepath.Join(d, ".git"))
	return err == nil
}

// ownOutput names what kitsoki writes into a .kitsoki/ by itself: the
// default trace directory of run and mcp serve, the coverage profile the
// editor reads, and the checkout path the existing engine remembers in
// ~/.kitsoki/repo (it writes its run traces under ~/.kitsoki/sessions,
// never into the project).
var ownOutput = []string{"sessions", "coverage.json", "repo"}

// HasKitsokiDir reports whether d holds a .kitsoki/ that marks a project:
// a directory holding anything besides kitsoki's own output (or nothing:
// one made by hand), or a symbolic link (never read through). A .kitsoki/ that
// only a command's own output made marks nothing, so no command moves
// the root a later one resolves.
func HasKitsokiDir(d string) bool { return hasKitsokiDir(d, nil) }

// hasKitsokiDir is HasKitsokiDir; looked, when set (tests), runs between
// the look at the name and the open. The open goes through a root of d
// without waiting and must find what the look saw: a .kitsoki swapped for
// a link (out, or to a FIFO) in between marks as a link does, never having
// the directory it leads to listed.
func hasKitsokiDir(d string, looked func()) bool {
	p := filepath.Join(d, ".kitsoki")
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	if looked != nil {
		looked()
	}
	root, err := safefile.OpenDirRoot(d)
	if err != nil {
		return true // unreadable: the name alone marks
	}
	defer root.Close()
	f, err := safefile.OpenRootNoBlock(root, ".kitsoki")
	if err != nil {
		return true
	}
	defer f.Close()
	if got, err := f.Stat(); err != nil || !got.IsDir() || !os.SameFile(fi, got) {
		return true
	}
	empty := true
	for {
		ents, err := f.ReadDir(64)
		for _, e := range ents {
			empty = false
			if !slices.Contains(ownOutput, e.Name()) {
				return true
			}
		}
		if err != nil {
			return empty || !errors.Is(err, io.EOF)
		}
	}
}

// fallbackRoot is the widest of opts.Trees holding dir, else dir.
func (o Options) fallbackRoot(dir string) string {
	best := dir
	for _, t := range o.Trees {
		abs, err := filepath.Abs(t)
		if err != nil {
			continue
		}
		if _, ok := safefile.NewRoot(abs).Rel(dir); ok && len(abs) < len(best) {
			best = abs
		}
	}
	return best
}

// treeHolding is the widest of opts.Trees that holds dir strictly below
// it, as written; "" when none does.
func (o Options) treeHolding(dir string) string {
	best := ""
	for _, t := range o.Trees {
		abs, err := filepath.Abs(t)
		if err != nil {
			continue
		}
		abs = filepath.Clean(abs)
		if rel, ok := safefile.NewRoot(abs).Rel(dir); ok && rel != "." && (best == "" || len(abs) < len(best)) {
			best = abs
		}
	}
	return best
}

// newRoot is the Root at dir: opened through the widest tree holding it
// (a story a DIR/... walk found is read through the root the walk listed
// it through, so a directory swapped for a link leading out of the tree
// since is refused, whatever it leads to), else by its path.
func (o Options) newRoot(dir string) *safefile.Root {
	if t := o.treeHolding(dir); t != "" {
		return safefile.NewRootIn(t, dir)
	}
	return safefile.NewRoot(dir)
}

// projectRoot is [ProjectRoot] of dir, the markers of the directories
// strictly below a tree holding dir looked at through a root of that tree
// (treeMarks): a directory on the way swapped for a link leading out of
// the tree marks nothing, whatever lies where it leads.
func (o Options) projectRoot(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	t := o.treeHolding(dir)
	if t == "" {
		return ProjectRoot(dir)
	}
	tr := safefile.NewRoot(t)
	defer tr.Close()
	for d := range Ancestors(dir) {
		if rel, ok := tr.Rel(d); ok && rel != "." {
			if treeMarks(tr, d) {
				return d, true
			}
		} else if marksProject(d) {
			return d, true
		}
	}
	return dir, false
}

// treeMarks is marksProject of d, a directory below the tree tr, looked at
// through tr: a .git or .kitsoki that is a link marks, whether its target
// exists or not; a .kitsoki directory is listed through tr.
func treeMarks(tr *safefile.Root, d string) bool {
	if _, err := tr.Lstat(filepath.Join(d, ".git")); err == nil {
		return true
	}
	k := filepath.Join(d, ".kitsoki")
	fi, err := tr.Lstat(k)
	if err != nil || !fi.IsDir() {
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	ents, err := tr.ReadDir(k, 0)
	if err != nil || len(ents) == 0 {
		return true // unreadable: the name alone marks; empty: made by hand
	}
	return slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return !slices.Contains(ownOutput, e.Name()) })
}

// rootFor is the project root of the story whose manifest is abs; a child
// outside the importer's root (an @kitsoki/ source) gets its own.
func (l *loader) rootFor(abs string) *safefile.Root {
	if l.root != nil {
		if _, ok := l.root.Rel(abs); ok {
			return l.root
		}
	}
	dir := l.opts.rootDir(abs, l.root == nil)
	if r := l.roots[dir]; r != nil {
		return r
	}
	r := l.opts.newRoot(dir)
	l.roots[r.Dir()] = r
	if l.root == nil {
		l.root = r
	}
	return r
}

// rootDir is the project root directory of the story whose manifest is
// abs: --root's for the top story (top) when given, else the nearest
// marked directory above it, else the widest tree holding it.
func (o Options) rootDir(abs string, top bool) string {
	if top && o.Root != "" {
		return o.Root
	}
	dir, marked := o.projectRoot(filepath.Dir(abs))
	if !marked {
		dir = o.fallbackRoot(dir)
	}
	return dir
}

// ManifestRoot is the project root a load with these options reads the
// story at path (a directory or its app.yaml) through, found as the load
// finds it, whether or not the load succeeds: a file of the story read
// again after the load goes through it, never by its path.
func (o Options) ManifestRoot(path string) *safefile.Root {
	abs, _ := filepath.Abs(ManifestPath(path))
	return o.newRoot(o.rootDir(abs, true))
}

// closeRoots closes what the load's roots opened (a root reopens on use).
func (l *loader) closeRoots() {
	for _, r := range l.roots {
		r.Close()
	}
}

// outsideRoot reports at p that the file written is outside its root.
func (l *loader) outsideRoot(p Pos, root *safefile.Root, what, written string, err error) {
	l.rep.Errf(p, RuleOutsideRoot, "%s", OutsideRootMessage(root, what, written, err))
}

// OutsideRootMessage says that the file written is outside its project
// root and why, naming the path as written, never what lies outside.
func OutsideRootMessage(root *safefile.Root, what, written string, err error) string {
	if pe, ok := errors.AsType[*os.PathError](err); ok && pe.Op == "read" {
		return fmt.Sprintf("%s %q goes through a symlink leading out of the project root %s; nothing outside the root is read: put the file itself there, or a link that stays inside, or pass --root DIR naming a directory that holds both", what, written, root.Dir())
	}
	if !marksProject(root.Dir()) {
		return fmt.Sprintf("%s %q leaves the project root %s (no .git or .kitsoki/ above the story marks a project, so its own directory is the root); nothing outside the root is read: mark the directory that holds both as the project root, by creating .kitsoki/ in it (mkdir DIR/.kitsoki) or working inside a git repository that holds both, or pass --root DIR naming it, or move the file inside %s", what, written, root.Dir(), root.Dir())
	}
	return fmt.Sprintf("%s %q leaves the project root %s (the nearest directory above the story holding .git or .kitsoki/); nothing outside the root is read: move the file inside the project, or pass --root DIR naming a directory that holds both", what, written, root.Dir())
}

// marksProject reports whether dir holds .git or a .kitsoki/ that marks a
// project: a root found, not the story's own directory taken for want of one.
func marksProject(dir string) bool { return hasGit(dir) || HasKitsokiDir(dir) }

// readIn returns the bytes of abs (an editor's buffer when Overlay holds
// one), which must lie inside root through every symlink: ok is false when
// it does not (err is the Root's); a read error inside comes back with ok.
func (l *loader) readIn(root *safefile.Root, abs string) (data []byte, ok bool, err error) {
	if _, in := root.Rel(abs); in && root.InGitDir(abs) {
		return nil, true, safefile.ErrInGitDir
	}
	if b, ok := l.opts.Overlay[abs]; ok {
		// An editor's buffer: only its name can leave the root.
		if _, in := root.Rel(abs); !in {
			_, err := root.Stat(abs)
			return nil, false, err
		}
		if err := safefile.CheckSize(abs, int64(len(b)), safefile.StoryYAML); err != nil {
			return nil, true, err // as the same file on disk: never parsed
		}
		return b, true, nil
	}
	// ReadFile's first step is the root's stat of abs: a path leaving
	// the root is refused there, as Stat would
	data, err = root.ReadFile(abs, safefile.StoryYAML)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, false, err
	}
	return data, true, err
}

// confinePrompts refuses, and drops from the model, a prompts: overlay or
// shared directory outside the project root, so nothing reads through it.
func (l *loader) confinePrompts(st *Story) {
	pc := st.Prompts
	if pc == nil {
		return
	}
	inside := func(p Pos, what, d string) bool {
		_, err := st.root.Stat(filepath.Clean(beside(st.Dir, d)))
		if errors.Is(err, safefile.ErrOutsideRoot) {
			l.outsideRoot(p, st.root, what, d, err)
			return false
		}
		return true
	}
	if strings.TrimSpace(pc.Overlay) != "" && !inside(pc.OverlayPos, "prompts.overlay", pc.Overlay) {
		pc.Overlay = ""
	}
	var shared []string
	var pos []Pos
	for i, d := range pc.Shared {
		p := pc.Pos
		if i < len(pc.SharedPos) {
			p = pc.SharedPos[i]
		}
		if inside(p, fmt.Sprintf("prompts.shared[%d]", i), d) {
			shared = append(shared, d)
			pos = append(pos, p)
		}
	}
	pc.Shared, pc.SharedPos = shared, pos
}

// beside is p when absolute, else p in dir.
func beside(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// FileRoot is the story's project root (found above Dir when not loaded).
func (st *Story) FileRoot() *safefile.Root {
	if st.root == nil {
		dir, _ := ProjectRoot(st.Dir)
		st.root = safefile.NewRoot(dir)
	}
	return st.root
}

// Patterns is the budget every regular expression compiled for the story
// shares (its schemas, fixtures, cassettes and profile; its imported
// children's too), so that splitting them into many files spends no more.
func (st *Story) Patterns() *recost.Budget {
	if st.patterns == nil {
		st.patterns = recost.NewBudget()
	}
	return st.patterns
}

// PromptRoots returns the absolute directories prompt files may be read
// from: the story's, its prompts: directories, and its children's.
func (st *Story) PromptRoots() []string {
	var out []string
	seen, added := map[*Story]bool{}, map[string]bool{} // a set: a chain of thousands of imports stays linear
	var walk func(s *Story)
	walk = func(s *Story) {
		if s == nil || seen[s] || s.Dir == "" {
			return
		}
		seen[s] = true
		add := func(d string) {
			d = beside(s.Dir, d)
			if abs, err := filepath.Abs(d); err == nil {
				d = abs
			}
			if !added[d] {
				added[d] = true
				out = append(out, d)
			}
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
		for _, name := range slices.Sorted(maps.Keys(s.Imports)) {
			if im := s.Imports[name]; im != nil {
				walk(im.Child)
			}
		}
	}
	walk(st)
	return out
}

// Confined reports whether the absolute path p lies inside one of roots
// both as written and with symlinks resolved. A p that does not resolve
// (missing, a name over the system's limit, a file used as a directory, a
// NUL byte, a link loop) is judged where it would be: its deepest
// resolving directory, links followed, with the rest as written, so the
// answer for a path under a directory link leading out does not tell
// whether it exists, and a path that merely cannot be opened is not
// called outside.
func Confined(p string, roots []string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	p = filepath.Clean(p)
	real := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		real = r
	} else if linkLeadsOut(p, roots) {
		return false
	} else {
		real = whereMissing(p)
	}
	lexical, resolved := false, false
	for _, root := range safefile.DropLinkedOut(roots) {
		if safefile.Within(root, p) {
			lexical = true
		}
		rr := root
		if r, err := filepath.EvalSymlinks(root); err == nil {
			rr = r
		}
		if safefile.Within(rr, real) || safefile.Within(root, real) {
			resolved = true
		}
	}
	return lexical && resolved
}
