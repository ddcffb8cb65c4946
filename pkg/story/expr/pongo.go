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
	"sync"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"

	"kitsoki/internal/safefile"
)

// PongoLoader compiles pongo2 templates with its own pongo2.TemplateSet,
// so nothing leaks between stories. Names in include, extends and import
// resolve through a registered namespace prefix, else against the search
// directories in order, then relative to the including file; only inside
// the template roots (search, namespace and Confine directories, and each
// compiled file's directory). {% ssi %} is banned.
type PongoLoader struct {
	// Limits bound each render of a template it compiles that spends a
	// budget of its own (not WithSharedBudget's); the zero value is the
	// production bounds. Tests set small ones.
	Limits RenderLimits

	dirs    []string
	ns      map[string][]string // "@shared" -> dirs, searched in order
	confine []string            // roots that are not searched (Confine)
	set     *pongo2.TemplateSet

	mu        sync.Mutex
	getErrs   map[string]error   // why an include/extends target was refused
	refusedBy map[*Error]refusal // the refusals among them, and who named the target
	files     map[string]bool    // absolute paths given to CompileFile
	fileDirs  []string           // their directories (template roots too)
	accepted  map[string]bool    // absolute paths Abs resolved and allowed
	namedAs   map[string]namedAt // how each accepted path was first written, for Get's errors
	followed  map[string]bool    // files whose literal includes checkIncludeCycle followed
	refused   int                // counter for refusal sentinels
	// pending holds what CompileFile just read, for pongo2's next Get of it.
	pending map[string][]byte
}

// ErrOutsideRoots is wrapped by the *Error of an include, extends or
// import target the loader refused.
var ErrOutsideRoots = errors.New("template path outside the template roots")

// refusedPrefix starts the name Abs returns for a refused path.
const refusedPrefix = "@\x00refused/"

// Pongo is a compiled pongo2 template. It is safe for concurrent rendering.
type Pongo struct {
	name string
	tpl  *pongo2.Template
	l    *PongoLoader
}

// NewPongoLoader returns a loader searching dirs, in order.
func NewPongoLoader(dirs ...string) *PongoLoader {
	l := &PongoLoader{ns: map[string][]string{}, getErrs: map[string]error{}, refusedBy: map[*Error]refusal{}, files: map[string]bool{}, accepted: map[string]bool{}, namedAs: map[string]namedAt{}, followed: map[string]bool{}, pending: map[string][]byte{}}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		l.dirs = append(l.dirs, d)
	}
	l.set = pongo2.NewSet(fmt.Sprintf("kitsoki-%p", l), fileLoader{l})
	_ = l.set.BanTag("ssi") // reads any file, past the loader
	return l
}

// AddNamespace maps a name prefix such as "@shared" to a directory
// (several: searched in order); call it before compiling templates.
func (l *PongoLoader) AddNamespace(prefix, dir string) {
	prefix = strings.TrimSuffix(prefix, "/")
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if !slices.Contains(l.ns[prefix], dir) {
		l.ns[prefix] = append(l.ns[prefix], dir)
	}
}

// Compile compiles a template held in a string (a view or say: body).
func (l *PongoLoader) Compile(src string) (p *Pongo, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %q: internal error: %v", src, r), Src: src}
		}
	}()
	if e := checkPongoLimits("<string>", src); e != nil {
		return nil, e
	}
	if e := l.checkIncludeCycle("<string>", src); e != nil {
		return nil, e
	}
	tpl, perr := l.set.FromString(prepPongo(src))
	if perr != nil {
		return nil, l.pongoError("<string>", src, perr)
	}
	return &Pongo{name: "<string>", tpl: tpl, l: l}, nil
}

// CompileFile compiles the template file at path through the loader.
func (l *PongoLoader) CompileFile(path string) (p *Pongo, err error) {
	if abs, err := filepath.Abs(path); err == nil {
		l.mu.Lock()
		git := l.inGitDir(abs)
		l.mu.Unlock()
		if git {
			return nil, &Error{Kind: KindPongo, Err: ErrOutsideRoots, Msg: fmt.Sprintf("pongo2 template %s: it lies inside a .git directory (a checkout's .git/config may hold a CI token); name a file of the story", path)}
		}
	}
	src, rerr := safefile.ReadFile(path, safefile.Story)
	if rerr != nil {
		return nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: %v (check the path)", path, rerr), Err: rerr}
	}
	return l.compileFileSource(path, src)
}

// CheckFileSource returns the error CompileFile(path) would for src, the
// bytes the caller just read from path, recording path as it does.
func (l *PongoLoader) CheckFileSource(path string, src []byte) error {
	_, err := l.compileFileSource(path, src)
	return err
}

// compileFileSource compiles src, the bytes of path.
func (l *PongoLoader) compileFileSource(path string, src []byte) (p *Pongo, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: internal error: %v", path, r)}
		}
	}()
	text := string(src)
	if e := checkPongoLimits(path, text); e != nil {
		return nil, e
	}
	abs, aerr := filepath.Abs(path)
	if aerr != nil {
		abs = path
	}
	if e := l.checkIncludeCycle(abs, text); e != nil {
		return nil, e
	}
	l.mu.Lock()
	l.files[abs] = true
	if d := filepath.Dir(abs); !slices.Contains(l.fileDirs, d) {
		l.fileDirs = append(l.fileDirs, d)
	}
	l.pending[abs] = src
	l.mu.Unlock()
	tpl, perr := l.set.FromFile(abs)
	l.mu.Lock()
	delete(l.pending, abs)
	l.mu.Unlock()
	if perr != nil {
		return nil, l.pongoError(path, text, perr)
	}
	return &Pongo{name: path, tpl: tpl, l: l}, nil
}

// CompilePongo compiles a string template with no file loader.
func CompilePongo(src string) (*Pongo, error) {
	return NewPongoLoader().Compile(src)
}

// pongoError turns a pongo2 error into an *Error, with the loader's reason
// for a refused include or extends target instead of pongo2's.
func (l *PongoLoader) pongoError(name, src string, err error) *Error {
	var pe *pongo2.Error
	if errors.As(err, &pe) && pe.Filename != "" {
		l.mu.Lock()
		gerr, ok := l.getErrs[pe.Filename]
		if !ok {
			gerr = l.getErrs[l.resolve("", pe.Filename)]
		}
		l.mu.Unlock()
		if ge, ok := errors.AsType[*Error](gerr); ok {
			return l.placeRefusal(name, src, ge)
		}
		if pe.Filename != name && pe.Filename != "<string>" && pe.Line > 0 {
			// an included file's column in its own text, without kitsoki's tags
			if b, rerr := safefile.ReadFile(l.resolve("", pe.Filename), safefile.Story); rerr == nil {
				moved := *pe
				moved.Column = unshiftIncludeCol(string(b), pe.Line, pe.Column)
				err = &moved
			}
		}
	}
	return pongoError(name, src, err)
}

func pongoError(name, src string, err error) *Error {
	e := &Error{Kind: KindPongo, Src: src, Err: err}
	if pe, ok := errors.AsType[*pongo2.Error](err); ok {
		where := name
		if pe.Filename != "" && pe.Filename != "<string>" && pe.Filename != name {
			where = pe.Filename
		}
		e.Line, e.Col = pe.Line, pe.Column
		if where == name {
			// pongo2 counts bytes; Error.Col counts code points
			e.Col = byteColToRune(src, pe.Line, unshiftIncludeCol(src, pe.Line, pe.Column))
		}
		msg := plainText(pe.OrigError.Error())
		if pe.Line > 0 {
			near := ""
			if pe.Token != nil {
				near = fmt.Sprintf(" near %q", pe.Token.Val)
			}
			e.Msg = fmt.Sprintf("pongo2 %s:%d:%d: %s%s", where, e.Line, e.Col, msg, near)
		} else {
			e.Msg = fmt.Sprintf("pongo2 %s: %s", where, msg)
		}
		return e
	}
	e.Msg = fmt.Sprintf("pongo2 %s: %v", name, err)
	return e
}

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
	if strings.HasPrefix(name, "@") && l.namespace(name) == "" {
		return l.refuse(base, name, "no namespace of this name is registered")
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
	if strings.HasPrefix(name, "@") && l.namespace(name) == "" {
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
	l.refused++
	key := fmt.Sprintf("%s%d", refusedPrefix, l.refused)
	what := fmt.Sprintf("template path %q is refused: %s (roots: %s)", name, why, strings.Join(l.roots(), ", "))
	err := &Error{Kind: KindPongo, Err: ErrOutsideRoots, Msg: fmt.Sprintf("pongo2 %s: %s", cmp.Or(base, "<string>"), what)}
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
	f.l.mu.Unlock()
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
		if b, err = safefile.ReadFile(name, safefile.Story); err != nil {
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
	for _, c := range cands {
		if mode, err := os.Stat(c); err == nil && !mode.IsDir() {
			return c
		}
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return name
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

// byteColToRune turns pongo2's 1-based byte column on line of src into a
// rune column (unchanged when src has no such line).
func byteColToRune(src string, line, col int) int {
	if line < 1 || col < 1 {
		return col
	}
	for i := 1; i < line; i++ {
		nl := strings.IndexByte(src, '\n')
		if nl < 0 {
			return col
		}
		src = src[nl+1:]
	}
	if nl := strings.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	n := min(col-1, len(src))
	return utf8.RuneCountInString(src[:n]) + 1
}
