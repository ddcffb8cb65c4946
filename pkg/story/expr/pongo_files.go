package expr

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
)

// fileLoader is the pongo2.TemplateLoader of one PongoLoader.
type fileLoader struct{ l *PongoLoader }

// Abs resolves name as written in the template base; a refused name
// becomes a sentinel whose Get fails with the reason.
func (f fileLoader) Abs(base, name string) string {
	l := f.l
	if strings.HasPrefix(name, refusedPrefix) {
		return name
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if filepath.IsAbs(name) {
		if base == "" && (l.files[name] || l.accepted[name]) {
			return name
		}
		return l.refuse(base, name, "absolute paths are not allowed; name the file relative to a template root")
	}
	if l.unregistered(name) {
		return l.refuseAs(errors.Join(ErrOutsideRoots, ErrNoNamespace), base, name, "no namespace of this name is registered")
	}
	p := l.resolve(base, name)
	if !l.insideRoots(p) {
		if slices.ContainsFunc(l.roots(), func(r string) bool { return underDir(r, p) }) {
			// inside as written: a link on the way leads out (whether its
			// target exists is not said)
			return l.refuse(base, name, fmt.Sprintf("it resolves to %s, which is or lies under a symbolic link leading outside the template roots; include a file of the story, or make the link lead to one", p))
		}
		return l.refuse(base, name, fmt.Sprintf("it resolves to %s, outside the template roots", p))
	}
	if l.inGitDir(p) {
		return l.refuse(base, name, fmt.Sprintf("it resolves to %s, inside a .git directory (a checkout's .git/config may hold a CI token); name a file of the story", p))
	}
	l.accepted[p] = true
	if _, ok := l.namedAs[p]; !ok {
		l.namedAs[p] = namedAt{base: base, name: name}
	}
	return p
}

// namedAt is a template path as an include, extends or import wrote it,
// and the template that wrote it.
type namedAt struct{ base, name string }

// Resolve is the file a literal include, extends or import of name reads
// when written in the template file base ("" for a template held in a
// string), as the loader resolves it, and whether the loader reads it:
// false for a name it refuses (absolute, an unregistered namespace,
// outside the template roots, inside a .git directory). It reads no file.
func (l *PongoLoader) Resolve(base, name string) (string, bool) {
	if name == "" || filepath.IsAbs(name) || strings.HasPrefix(name, refusedPrefix) {
		return "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.unregistered(name) {
		return "", false
	}
	p := l.resolve(base, name)
	if !l.insideRoots(p) || l.inGitDir(p) {
		return "", false
	}
	return p, true
}

// refuse records why name may not be read and returns Abs's sentinel. l.mu is held.
func (l *PongoLoader) refuse(base, name, why string) string {
	return l.refuseAs(ErrOutsideRoots, base, name, why)
}

// refuseAs is refuse with the error the refusal wraps. l.mu is held.
func (l *PongoLoader) refuseAs(sentinel error, base, name, why string) string {
	l.refused++
	key := fmt.Sprintf("%s%d", refusedPrefix, l.refused)
	what := fmt.Sprintf("template path %q is refused: %s (roots: %s)", name, why, strings.Join(l.roots(), ", "))
	err := &Error{Kind: KindPongo, Err: sentinel, Msg: fmt.Sprintf("pongo2 %s: %s", cmp.Or(base, "<string>"), what)}
	l.refusedBy[err] = refusal{at: namedAt{base: base, name: name}, what: what}
	l.getErrs[key] = err
	l.getErrs[name] = err // pongo2 may report the name as written
	return key
}

// Confine adds dir as a template root that is not searched: a name
// relative to a searched root or an including file may lead into it
// ("../x" from views/). Call it before compiling templates.
func (l *PongoLoader) Confine(dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	l.confine = append(l.confine, dir)
}

// Roots returns the loader's search and namespace directories, to which a
// prompt renderer confines prompt files.
func (l *PongoLoader) Roots() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.declaredRoots()
}

// declaredRoots is Roots. l.mu is held.
func (l *PongoLoader) declaredRoots() []string {
	out := slices.Clone(l.dirs)
	for _, prefix := range slices.Sorted(maps.Keys(l.ns)) {
		out = append(out, l.ns[prefix]...)
	}
	return out
}

// roots lists the template roots. l.mu is held.
func (l *PongoLoader) roots() []string {
	out := append(append(l.declaredRoots(), l.confine...), l.fileDirs...)
	out = slices.DeleteFunc(out, func(d string) bool { return d == "" })
	seen := map[string]bool{}
	out = slices.DeleteFunc(out, func(d string) bool { dup := seen[d]; seen[d] = true; return dup })
	out = safefile.DropLinkedOut(out)
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// insideRoots reports whether the absolute path p lies inside a template
// root, symlinks resolved. l.mu is held.
func (l *PongoLoader) insideRoots(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	roots := l.roots()
	if !slices.ContainsFunc(roots, func(r string) bool { return underDir(r, p) }) {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		// A missing file is fine, unless what exists of its path leads
		// out (a dangling link out reads as refused, as one to a file
		// there does: no finding tells what is outside); a loop or a
		// permission error is refused.
		return os.IsNotExist(err) && missingInside(p, roots)
	}
	return resolvedInside(real, roots)
}

// resolvedInside reports whether real, a path with its symlinks resolved,
// lies under one of roots (or a root's own resolution).
func resolvedInside(real string, roots []string) bool {
	for _, r := range roots {
		if underDir(r, real) {
			return true
		}
		if rr, err := filepath.EvalSymlinks(r); err == nil && underDir(rr, real) {
			return true
		}
	}
	return false
}

// missingInside reports whether the missing path p would lie under roots:
// the deepest part of it that exists, its links resolved (a dangling one
// by its text, followed hop by hop, at most maxLinkHops), with the rest
// joined on.
func missingInside(p string, roots []string) bool {
	return missingInsideHops(p, roots, maxLinkHops)
}

// maxLinkHops bounds the dangling links missingInside follows (the
// kernel's own bound on a path's links is 40).
const maxLinkHops = 40

func missingInsideHops(p string, roots []string, hops int) bool {
	if hops == 0 {
		return false
	}
	a := p
	for {
		if _, err := os.Lstat(a); err == nil {
			break
		}
		d := filepath.Dir(a)
		if d == a {
			return true
		}
		a = d
	}
	rest, err := filepath.Rel(a, p)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(a)
	if err != nil { // a dangling link: where its text points
		t, lerr := os.Readlink(a)
		if lerr != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(a), t)
		}
		// the next hop may be a link too (inside, leading out): follow it
		// as the path it names
		next := filepath.Join(t, rest)
		return slices.ContainsFunc(roots, func(r string) bool { return underDir(r, next) }) && missingInsideHops(next, roots, hops-1)
	}
	return resolvedInside(filepath.Join(real, rest), roots)
}

// inGitDir reports whether p lies in a .git directory below a template
// root (safefile.InGitDir): a story at a checkout's top has the checkout
// as its root, and {% include ".git/config" %} printed the job's token in
// a failing fixture's view. l.mu is held.
func (l *PongoLoader) inGitDir(p string) bool {
	return slices.ContainsFunc(l.roots(), func(r string) bool { return underDir(r, p) && safefile.InGitDir(r, p) })
}

func underDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (f fileLoader) Get(name string) (io.Reader, error) {
	f.l.mu.Lock()
	rerr := f.l.getErrs[name]
	ok := f.l.files[name] || f.l.accepted[name]
	pending, read := f.l.pending[name]
	delete(f.l.pending, name)
	roots, taken := f.l.readRoots(), f.l.rootsTaken
	f.l.mu.Unlock()
	if taken != nil {
		taken()
	}
	if strings.HasPrefix(name, refusedPrefix) {
		return nil, rerr
	}
	if !ok {
		// Every name reaches Get through Abs; anything else is refused.
		return nil, fmt.Errorf("pongo2: template path %q was not resolved by the loader", name)
	}
	b := pending
	if !read {
		var err error
		if b, err = readTemplate(name, roots); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, err // pongo2's "unable to resolve template", as upstream
			}
			// a device, a FIFO, a directory or a file past the cap: say
			// which, instead of pongo2's bare "unable to resolve"
			f.l.mu.Lock()
			at := f.l.namedAs[name]
			what := fmt.Sprintf("template path %q is refused: %v", cmp.Or(at.name, name), err)
			e := &Error{Kind: KindPongo, Err: err, Msg: fmt.Sprintf("pongo2 %s: %s", cmp.Or(at.base, "<string>"), what)}
			f.l.refusedBy[e] = refusal{at: at, what: what}
			f.l.getErrs[name] = e
			f.l.mu.Unlock()
			return nil, e
		}
	}
	text := string(b)
	// a computed include is read only now: follow its own includes
	f.l.mu.Lock()
	followed := f.l.followed[name]
	f.l.mu.Unlock()
	e := checkPongoLimits(name, text)
	if e == nil && !followed {
		e = f.l.checkIncludeCycle(name, text)
	}
	if e != nil {
		f.l.mu.Lock()
		f.l.getErrs[name] = e
		f.l.mu.Unlock()
		return nil, e
	}
	return strings.NewReader(prepPongo(text)), nil
}

func (l *PongoLoader) resolve(base, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	var cands []string
	if prefix := l.namespace(name); prefix != "" {
		rel := filepath.FromSlash(name[len(prefix)+1:])
		for _, d := range l.ns[prefix] {
			cands = append(cands, filepath.Join(d, rel))
		}
	} else {
		for _, d := range l.dirs {
			cands = append(cands, filepath.Join(d, filepath.FromSlash(name)))
		}
		if base != "" && base != "<string>" {
			cands = append(cands, filepath.Join(filepath.Dir(base), filepath.FromSlash(name)))
		}
	}
	// A candidate outside the roots ("../", a search directory that links
	// out) is never looked at: the first one stands for the name when no
	// candidate inside exists, refused whether or not a file is there.
	// One inside is looked at through the roots, so a link out swapped in
	// since the check is such a candidate too, never a file or a miss.
	out := ""
	for _, c := range cands {
		if !l.insideRoots(c) {
			out = cmp.Or(out, c)
			continue
		}
		if l.candLooked != nil {
			l.candLooked(c)
		}
		fi, err := l.statThroughRoots(c)
		if errors.Is(err, safefile.ErrOutsideRoot) || errors.Is(err, ErrOutsideRoots) {
			out = cmp.Or(out, c)
			continue
		}
		if err == nil && !fi.IsDir() {
			return c
		}
	}
	if out != "" {
		return out
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return name
}

// unregistered reports a name that starts with "@" in a loader with
// namespaces, none of which it names. A loader with none (a view's, a
// say:'s) reads "@story/x" as a path like any other, as upstream's does
// (conformance view-at-name-plain). l.mu is held.
func (l *PongoLoader) unregistered(name string) bool {
	return strings.HasPrefix(name, "@") && len(l.ns) > 0 && l.namespace(name) == ""
}

// namespace is the longest registered prefix of name (as "prefix/"), or "".
func (l *PongoLoader) namespace(name string) string {
	best := ""
	for prefix := range l.ns {
		if strings.HasPrefix(name, prefix+"/") && len(prefix) > len(best) {
			best = prefix
		}
	}
	return best
}
