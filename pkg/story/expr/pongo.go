package expr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/flosch/pongo2/v6"
)

// PongoLoader compiles pongo2 templates (views, say, prompts, targets) with
// its own pongo2.TemplateSet, so nothing leaks between stories. Names in
// {% include %} and {% extends %} resolve, in order: absolute paths as is;
// a registered namespace prefix ("@shared/", "@import/<alias>/", or
// "@story/" if registered); otherwise "@story/" and plain names against the
// search directories in order (overlay first, then the story), then
// relative to the including file.
type PongoLoader struct {
	dirs []string
	ns   map[string]string // "@shared" -> dir
	set  *pongo2.TemplateSet

	mu      sync.Mutex
	getErrs map[string]error // why an include/extends target was refused
}

// Pongo is a compiled pongo2 template. It is safe for concurrent rendering.
type Pongo struct {
	name string
	tpl  *pongo2.Template
	l    *PongoLoader
}

// NewPongoLoader returns a loader searching dirs, in order, for include and
// extends targets.
func NewPongoLoader(dirs ...string) *PongoLoader {
	l := &PongoLoader{ns: map[string]string{}, getErrs: map[string]error{}}
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
	return l
}

// AddNamespace maps a name prefix such as "@shared" or "@import/fixer" to a
// directory: "{% include '@shared/x.md' %}" reads dir/x.md. Call it before
// compiling templates.
func (l *PongoLoader) AddNamespace(prefix, dir string) {
	prefix = strings.TrimSuffix(prefix, "/")
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	l.ns[prefix] = dir
}

// Compile compiles a template held in a string (a view or say: body).
func (l *PongoLoader) Compile(src string) (p *Pongo, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %q: internal error: %v", src, r), Src: src}
		}
	}()
	if e := checkPongoHang("<string>", src); e != nil {
		return nil, e
	}
	tpl, perr := l.set.FromString(RewritePongo(src))
	if perr != nil {
		return nil, l.pongoError("<string>", src, perr)
	}
	return &Pongo{name: "<string>", tpl: tpl, l: l}, nil
}

// CompileFile compiles the template file at path (a prompt or a view
// layout); its includes and extends resolve through the loader.
func (l *PongoLoader) CompileFile(path string) (p *Pongo, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: internal error: %v", path, r)}
		}
	}()
	src, rerr := os.ReadFile(path)
	if rerr != nil {
		return nil, &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 template %s: %v (check the path)", path, rerr), Err: rerr}
	}
	if e := checkPongoHang(path, string(src)); e != nil {
		return nil, e
	}
	abs, aerr := filepath.Abs(path)
	if aerr != nil {
		abs = path
	}
	tpl, perr := l.set.FromFile(abs)
	if perr != nil {
		return nil, l.pongoError(path, string(src), perr)
	}
	return &Pongo{name: path, tpl: tpl, l: l}, nil
}

// CompilePongo compiles a string template with no file loader: include and
// extends fail.
func CompilePongo(src string) (*Pongo, error) {
	return NewPongoLoader().Compile(src)
}

// Render renders the template. Undefined variables render empty.
func (p *Pongo) Render(ctx Env) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: internal error: %v", p.name, r)}
		}
	}()
	s, perr := p.tpl.Execute(pongo2.Context(ctx))
	if perr != nil {
		return "", p.l.pongoError(p.name, "", perr)
	}
	return s, nil
}

// pongoError turns a pongo2 error into an *Error; when pongo2 could not
// read an include or extends target because the loader refused it, the
// loader's reason replaces pongo2's "unable to resolve template".
func (l *PongoLoader) pongoError(name, src string, err error) *Error {
	var pe *pongo2.Error
	if errors.As(err, &pe) && pe.Filename != "" {
		l.mu.Lock()
		gerr, ok := l.getErrs[pe.Filename]
		if !ok {
			gerr = l.getErrs[l.resolve("", pe.Filename)]
		}
		l.mu.Unlock()
		var ge *Error
		if errors.As(gerr, &ge) {
			return ge
		}
	}
	return pongoError(name, src, err)
}

func pongoError(name, src string, err error) *Error {
	e := &Error{Kind: KindPongo, Src: src, Err: err}
	var pe *pongo2.Error
	if errors.As(err, &pe) {
		e.Line, e.Col = pe.Line, pe.Column
		where := name
		if pe.Filename != "" && pe.Filename != "<string>" && pe.Filename != name {
			where = pe.Filename
		}
		msg := pe.OrigError.Error()
		if pe.Line > 0 {
			near := ""
			if pe.Token != nil {
				near = fmt.Sprintf(" near %q", pe.Token.Val)
			}
			e.Msg = fmt.Sprintf("pongo2 %s:%d:%d: %s%s", where, pe.Line, pe.Column, msg, near)
		} else {
			e.Msg = fmt.Sprintf("pongo2 %s: %s", where, msg)
		}
		return e
	}
	e.Msg = fmt.Sprintf("pongo2 %s: %v", name, err)
	return e
}

// fileLoader is the pongo2.TemplateLoader of one PongoLoader. Every file it
// reads gets the ` ?? ` rewrite.
type fileLoader struct{ l *PongoLoader }

func (f fileLoader) Abs(base, name string) string {
	return f.l.resolve(base, name)
}

func (f fileLoader) Get(name string) (io.Reader, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = f.l.resolve("", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if e := checkPongoHang(path, string(b)); e != nil {
		f.l.mu.Lock()
		f.l.getErrs[path] = e
		f.l.getErrs[name] = e
		f.l.mu.Unlock()
		return nil, e
	}
	return bytes.NewReader([]byte(RewritePongo(string(b)))), nil
}

func (l *PongoLoader) resolve(base, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	if strings.HasPrefix(name, "@") {
		best := ""
		for prefix := range l.ns {
			if strings.HasPrefix(name, prefix+"/") && len(prefix) > len(best) {
				best = prefix
			}
		}
		if best != "" {
			return filepath.Join(l.ns[best], filepath.FromSlash(name[len(best)+1:]))
		}
		rest, ok := strings.CutPrefix(name, "@story/")
		if !ok {
			return name // unresolvable namespace: Get fails naming it
		}
		name = rest
	}
	var cands []string
	for _, d := range l.dirs {
		cands = append(cands, filepath.Join(d, filepath.FromSlash(name)))
	}
	if base != "" && base != "<string>" {
		cands = append(cands, filepath.Join(filepath.Dir(base), filepath.FromSlash(name)))
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return name
}
