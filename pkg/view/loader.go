package view

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// dirLoader compiles and caches the templates of one story directory. As
// upstream's, its one root is <dir>/views: no prompts overlay, no <dir>,
// no @story/ or @shared/ (conformance view-template-root).
type dirLoader struct {
	views string // <dir>/views
	l     *expr.PongoLoader

	// compileMu serialises compiles: a pongo2 TemplateSet is not safe for them.
	compileMu sync.Mutex

	mu      sync.Mutex
	strs    map[string]compiled
	files   map[string]compiled
	layouts map[string]compiled
	found   map[string]string // view file name -> the path viewFile found
}

type compiled struct {
	p   *expr.Pongo
	err error
}

func (r *Renderer) loader(dir string) *dirLoader {
	r.mu.Lock()
	defer r.mu.Unlock()
	if dl := r.loaders[dir]; dl != nil {
		return dl
	}
	views := filepath.Join(dir, "views")
	l := expr.NewPongoLoader(views)
	l.Confine(dir) // "../x" from views/ reads the story's own files
	dl := &dirLoader{views: views, l: l, found: map[string]string{}, strs: map[string]compiled{}, files: map[string]compiled{}, layouts: map[string]compiled{}}
	r.loaders[dir] = dl
	return dl
}

// compile returns cache[key], compiled by f the first time.
func (dl *dirLoader) compile(cache map[string]compiled, key string, f func() (*expr.Pongo, error)) compiled {
	return memo(&dl.mu, cache, key, func() (c compiled) {
		dl.compileMu.Lock()
		defer dl.compileMu.Unlock()
		c.p, c.err = f()
		return c
	})
}

// memo returns cache[key], made by mk (outside mu) the first time.
func memo[T any](mu *sync.Mutex, cache map[string]T, key string, mk func() T) T {
	mu.Lock()
	v, ok := cache[key]
	mu.Unlock()
	if !ok {
		v = mk()
		mu.Lock()
		cache[key] = v
		mu.Unlock()
	}
	return v
}

// renderString renders a pongo2 template held in the story YAML.
func (dl *dirLoader) renderString(src string, env expr.Env, pos story.Pos, state, what string) (string, error) {
	if !story.IsTemplated(src) {
		return src, nil
	}
	c := dl.compile(dl.strs, src, func() (*expr.Pongo, error) { return dl.l.Compile(src) })
	if c.err != nil {
		return "", errAt(pos, state, what, c.err)
	}
	out, err := c.p.Render(env)
	if err != nil {
		return "", errAt(pos, state, what, err)
	}
	return out, nil
}

// viewFile resolves name under views/.
func (dl *dirLoader) viewFile(name string, pos story.Pos, state, what string) (string, error) {
	if name == "" || filepath.IsAbs(name) || strings.HasPrefix(filepath.ToSlash(filepath.Clean(filepath.FromSlash(name))), "../") {
		return "", &Error{Pos: pos, State: state, What: what, Msg: "view file " + quote(name) + " must be a relative path inside the story's views/ directory"}
	}
	dl.mu.Lock()
	p, ok := dl.found[name]
	dl.mu.Unlock()
	if ok {
		return p, nil // found once per run, as its compiled template is kept
	}
	p = filepath.Join(dl.views, filepath.FromSlash(name))
	// Asked through the roots the file is read through, never by path: a
	// name (templated, so unchecked at load) through a link leading out
	// is refused in the same words whether its target exists, is a
	// directory or is missing.
	st, err := dl.l.StatFile(p)
	if err == nil && !st.IsDir() {
		dl.mu.Lock()
		dl.found[name] = p
		dl.mu.Unlock()
		return p, nil
	}
	if errors.Is(err, safefile.ErrOutsideRoot) || errors.Is(err, expr.ErrOutsideRoots) {
		return "", &Error{Pos: pos, State: state, What: what, Msg: "view file " + quote(name) + " goes through a symlink leading out of the story directory; nothing outside it is read: put the file itself under views/, or a link that stays inside"}
	}
	return "", &Error{Pos: pos, State: state, What: what, Msg: "view file " + quote(name) + " not found (looked for " + p + ")"}
}

// renderFile renders views/<name> (a template_file view).
func (dl *dirLoader) renderFile(name string, env expr.Env, pos story.Pos, state string) (string, error) {
	path, err := dl.viewFile(name, pos, state, "view.template_file")
	if err != nil {
		return "", err
	}
	c := dl.compile(dl.files, path, func() (*expr.Pongo, error) { return dl.l.CompileFile(path) })
	fpos := story.Pos{File: path}
	if c.err != nil {
		return "", fileErr(fpos, state, path, c.err)
	}
	out, err := c.p.Render(env)
	if err != nil {
		return "", fileErr(fpos, state, path, err)
	}
	return out, nil
}

// renderLayout renders src, the generated child of views/<name>.
func (dl *dirLoader) renderLayout(src, name string, env expr.Env, pos story.Pos, state string) (string, error) {
	path, err := dl.viewFile(name, pos, state, "view.extends")
	if err != nil {
		return "", err
	}
	c := dl.compile(dl.layouts, src, func() (*expr.Pongo, error) {
		// The layout's own syntax errors are reported against the layout file.
		if _, err := dl.l.CompileFile(path); err != nil {
			return nil, fileErr(story.Pos{File: path}, state, path, err)
		}
		return dl.l.Compile(src)
	})
	if c.err != nil {
		return "", errAt(pos, state, "view.extends "+quote(name), c.err)
	}
	out, err := c.p.Render(env)
	if err != nil {
		return "", fileErr(story.Pos{File: path}, state, path, err)
	}
	return out, nil
}

// fileErr is errAt for a views/ file, at the line the error names.
func fileErr(pos story.Pos, state, path string, err error) error {
	var xe *expr.Error
	if errors.As(err, &xe) && xe.Line > 0 {
		pos.Line, pos.Col = xe.Line, xe.Col
	}
	return errAt(pos, state, filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), err)
}

func quote(s string) string { return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\"" }
