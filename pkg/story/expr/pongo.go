package expr

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"
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
	// rootsTaken, when set (tests only), runs in Get between taking the
	// roots and reading through them: a test swaps a directory there.
	rootsTaken func()
	// candLooked, when set (tests only), runs in resolve between the
	// lexical and link check of a candidate and the look at it.
	candLooked func(path string)
}

// ErrOutsideRoots is wrapped by the *Error of an include, extends or
// import target the loader refused.
var ErrOutsideRoots = errors.New("template path outside the template roots")

// ErrNoNamespace is wrapped, beside [ErrOutsideRoots], by the *Error of an
// "@name/…" target in a loader with namespaces, none of them name: the
// existing engine loads such a story and fails only when it renders it.
var ErrNoNamespace = errors.New("no template namespace of this name")

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
			p, err = nil, caught(KindPongo, fmt.Sprintf("pongo2 template %q", src), "the template compiler", src, r)
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
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	l.mu.Lock()
	git := l.inGitDir(abs)
	roots := l.fileRoots()
	l.mu.Unlock()
	if git {
		return nil, &Error{Kind: KindPongo, Err: ErrOutsideRoots, Msg: fmt.Sprintf("pongo2 template %s: it lies inside a .git directory (a checkout's .git/config may hold a CI token); name a file of the story", path)}
	}
	if len(roots) == 0 { // a loader with no roots reads the file through its own directory
		roots = []string{filepath.Dir(abs)}
	}
	src, rerr := readTemplate(abs, roots)
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
			p, err = nil, caught(KindPongo, "pongo2 template "+path, "the template compiler", "", r)
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
			l.mu.Lock()
			at, roots := l.resolve("", pe.Filename), l.readRoots()
			l.mu.Unlock()
			if b, rerr := readTemplate(at, roots); rerr == nil {
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
	src, _, _ = strings.Cut(src, "\n")
	n := min(col-1, len(src))
	return utf8.RuneCountInString(src[:n]) + 1
}
