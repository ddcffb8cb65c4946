package lint

import (
	"cmp"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var rulePongo = &Rule{ID: "pongo", Severity: diag.Error, LintOnly: true,
	Summary: "pongo2 templates in say, views and prompt files compile",
	Example: "say: \"{% if %}\""}

// checkPongo: pongo2 templates in say:, footer:, views, layouts and
// prompt files compile (reference §6.3). Missing include/extends targets
// and unknown filters are warnings: upstream resolves them at run time.
func checkPongo(c *checker) {
	pc := &pongoCheck{c: c, files: map[string]story.Pos{}, prompts: map[string]bool{}, exists: map[string]bool{}}
	if ctx := c.st.App.Context; ctx != "" {
		pc.compile(c.st.App.Pos, func() string { return "app.context" }, ctx)
	}
	if cp := c.st.App.ContextPath; cp != "" && !story.IsTemplated(cp) {
		if f, ok := c.existing(cp); ok {
			pc.files[f] = c.st.App.Pos
		}
	}
	for _, s := range c.states() {
		pc.at = diag.StatePlace(s.Path)
		pc.state(s)
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Say != "" && !site.Template {
			pc.at = site.Place()
			pc.compileInline(e.PosOf("say"), func() string { return site.String() + ": say" }, e.Say)
		}
		if !strings.HasPrefix(e.Invoke, "host.agent.") {
			return
		}
		for _, ref := range promptRefs(e) {
			if f, ok := c.existing(ref.path); ok && ref.isFile {
				pc.addFile(f, e.WithPos(ref.key))
				pc.prompts[f] = true
			}
		}
	})
	pc.at = diag.Place{}
	pc.compileFiles()
}

// pongoCheck is one run of checkPongo: the template files to compile
// with the position that references each. Its loaders are the checker's
// (templates), which the world reads share.
type pongoCheck struct {
	c     *checker
	files map[string]story.Pos
	// prompts marks prompt references (prompt-root reports one outside
	// the root); exists caches fileExists.
	prompts map[string]bool
	exists  map[string]bool
	// at is the place of the state or effect whose templates are being
	// compiled (the zero Place for the story's and files'), which a
	// finding whose message starts with it carries (Reporter.AddAt)
	at diag.Place
}

func (pc *pongoCheck) fileExists(f string) bool {
	ok, done := pc.exists[f]
	if !done {
		// Through the project root: a link leading out counts as there
		// (reading it is then the outside-root error), whether or not
		// its target exists, so no finding tells what is outside.
		_, err := pc.c.st.FileRoot().Stat(f)
		ok = err == nil || errors.Is(err, safefile.ErrOutsideRoot)
		pc.exists[f] = ok
	}
	return ok
}

// loader is the loader of the story's other templates (footer:,
// app.context, prompt files): as both engines', it searches the prompts
// overlay, the story directory and its prompts/, with the @story and
// @shared namespaces, and not views/ (a template that includes a view's
// partial by its views/-relative name fails to render there).
func (pc *pongoCheck) loader() *expr.PongoLoader {
	t := &pc.c.tpl
	if t.pl != nil {
		return t.pl
	}
	st := pc.c.st
	dirs, shared := st.PromptSearch()
	pl := expr.NewPongoLoader(dirs...)
	pl.AddNamespace("@story", st.Dir)
	for _, d := range shared {
		pl.AddNamespace("@shared", d)
	}
	t.pl = pl
	return pl
}

// inlineLoader is the loader of say:, templated targets and initial:: as
// both engines', it searches the story directory only (conformance
// say-include-story-dir).
func (pc *pongoCheck) inlineLoader() *expr.PongoLoader {
	t := &pc.c.tpl
	if t.il == nil {
		t.il = expr.NewPongoLoader(pc.c.st.Dir)
	}
	return t.il
}

// viewLoader is the loader of view templates: as upstream's, it searches
// views/ only, no overlay, story directory or namespace (conformance
// view-template-root); "../x" from views/ may still read the story's files.
func (pc *pongoCheck) viewLoader() *expr.PongoLoader {
	t := &pc.c.tpl
	if t.vl == nil {
		t.vl = expr.NewPongoLoader(filepath.Join(pc.c.st.Dir, "views"))
		t.vl.Confine(pc.c.st.Dir)
	}
	return t.vl
}

// loaderOf is the loader a source of kind compiles with: the views'
// (views/ only) for a view, the story directory's for an inline text,
// else the story's.
func (pc *pongoCheck) loaderOf(kind compileKind) *expr.PongoLoader {
	switch kind {
	case compiledPongoView:
		return pc.viewLoader()
	case compiledPongoInline:
		return pc.inlineLoader()
	}
	return pc.loader()
}

// templates is a checker's template loaders (made lazily) and the error
// of each template file compiled through them: rules pongo and world-key
// compile a file once, on the same loader, so the loader's state (the
// files it compiled, their directories as roots) is the same whichever
// rule compiles it first.
type templates struct {
	pl    *expr.PongoLoader
	vl    *expr.PongoLoader // views' own (viewLoader)
	il    *expr.PongoLoader // inline texts' (inlineLoader)
	files map[fileCompileKey]error
}

// fileCompileKey is one compile of a template file: its loader's kind,
// path and source.
type fileCompileKey struct {
	kind      compileKind
	path, src string
}

// checkFile is ld.CheckFileSource(f, src) with ld the loader of kind,
// once per checker.
func (pc *pongoCheck) checkFile(kind compileKind, f string, src []byte) error {
	t := &pc.c.tpl
	k := fileCompileKey{kind, f, string(src)}
	if err, ok := t.files[k]; ok {
		return err
	}
	err := pc.loaderOf(kind).CheckFileSource(f, src)
	if t.files == nil {
		t.files = map[fileCompileKey]error{}
	}
	t.files[k] = err
	return err
}

// compiled compiles src once with the loader of kind (nil when src holds
// no tag).
func (pc *pongoCheck) compiled(kind compileKind, loader func() *expr.PongoLoader, src string) error {
	if !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
		return nil
	}
	return pc.c.compiled(kind, src, func(s string) error { _, err := loader().Compile(s); return err })
}

// addFile records a template file to compile, at its first reference.
func (pc *pongoCheck) addFile(f string, p story.Pos) {
	if _, seen := pc.files[f]; !seen {
		pc.files[f] = p
	}
}

func (pc *pongoCheck) compile(p story.Pos, where func() string, src string) {
	pc.report(p, where, src, "this template fails to render", pc.compiled(compiledPongo, pc.loader, src), "")
}

// compileInline compiles a say: with the story directory's loader, as
// the engines render it (conformance say-include-story-dir).
func (pc *pongoCheck) compileInline(p story.Pos, where func() string, src string) {
	err := pc.compiled(compiledPongoInline, pc.inlineLoader, src)
	if err == nil {
		return
	}
	hint := pc.inlineHint(err)
	if m := namespaceRe.FindStringSubmatch(err.Error()); m != nil {
		// a prompt file's namespace: both engines read it as a path from
		// the story directory (conformance view-at-name-plain)
		hint = "; a say: knows no namespace (it searches the story directory for " + m[1] + "/" + m[2] + "): include \"" + m[2] + "\" by its path from the story directory"
	}
	pc.c.rep.AddAt(pc.c.errAt(p, src, err), pc.at, pongoSeverity(err), rulePongo, "%s: %s%s%s", where(), err.Error(), ternaryHint(src, err, "this say: fails to render, and the turn that runs it"), hint)
}

// namespaceRe is an unresolved include naming a prompt file's namespace,
// which a view or say: reads as a plain path.
var namespaceRe = &lazyre.Regexp{Expr: `unable to resolve template near "(@story|@shared)/([^"]+)"`}

// viewNamespaceHint explains a view's include of a prompt namespace: a
// view knows none, and looks for the name under views/.
func viewNamespaceHint(err error) string {
	if err == nil {
		return ""
	}
	m := namespaceRe.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	hint := "; a view knows no namespace (it searches views/ for " + m[1] + "/" + m[2] + "): include the file by its path from views/"
	if m[1] == "@story" {
		hint += " (\"../" + m[2] + "\" for one in the story directory)"
	}
	return hint
}

// report reports a template that does not compile; fails says what a
// ternary in it does at run time.
func (pc *pongoCheck) report(p story.Pos, where func() string, src, fails string, err error, hint string) {
	if err != nil {
		pc.c.rep.AddAt(pc.c.errAt(p, src, err), pc.at, pongoSeverity(err), rulePongo, "%s: %s%s%s%s", where(), err.Error(), ternaryHint(src, err, fails), pc.viewsHint(err), hint)
	}
}

// inlineHint explains an include of a say: that names a file of the
// prompts overlay, prompts/ or views/ by its name there: a say: searches
// the story directory only, so it names the path from there.
func (pc *pongoCheck) inlineHint(err error) string {
	m := unresolvedRe.FindStringSubmatch(err.Error())
	if m == nil || filepath.IsAbs(m[1]) || strings.HasPrefix(m[1], "@") {
		return ""
	}
	st := pc.c.st
	dirs, _ := st.PromptSearch()
	for _, d := range append(dirs, filepath.Join(st.Dir, "views")) {
		if d == st.Dir {
			continue // the say: searched it
		}
		f := filepath.Join(d, m[1])
		rel, rerr := filepath.Rel(st.Dir, f)
		if rerr != nil || !filepath.IsLocal(rel) || !pc.fileExists(f) {
			continue
		}
		rel = filepath.ToSlash(rel)
		return "; " + rel + " exists, but a say: searches the story directory only (not the prompts overlay, prompts/ or views/): include \"" + rel + "\""
	}
	return ""
}

// unresolvedRe is the name of an include pongo2 could not resolve.
var unresolvedRe = &lazyre.Regexp{Expr: `unable to resolve template near "([^"]+)"`}

// viewsHint explains an include of a say:, footer: or prompt template
// that names a views/ file as a view would: only views search views/.
func (pc *pongoCheck) viewsHint(err error) string {
	m := unresolvedRe.FindStringSubmatch(err.Error())
	if m == nil || filepath.IsAbs(m[1]) || strings.HasPrefix(m[1], "@") || !pc.fileExists(filepath.Join(pc.c.st.Dir, "views", m[1])) {
		return ""
	}
	return "; views/" + m[1] + " exists, but only views search views/ (this template searches the story directory and prompts/): include \"views/" + m[1] + "\""
}

// compileView reports a view element that does not compile. Upstream
// compiles an element only when it renders it, and a view that cannot
// render fails the turn that shows it (conformance view-render-fatal), so
// the message says when that happens. A template kitsoki refuses (outside
// the roots, a file it will not read) is an error, as everywhere.
func (pc *pongoCheck) compileView(p story.Pos, whereOf func() string, src string, guarded bool) {
	err := pc.compiled(compiledPongoView, pc.viewLoader, src)
	if err == nil {
		return
	}
	where := whereOf()
	c := pc.c
	if sev := pongoSeverity(err); sev == diag.Error {
		c.rep.AddAt(c.errAt(p, src, err), pc.at, sev, rulePongo, "%s: %s", where, err.Error())
		return
	}
	when := "whenever it is shown"
	if guarded {
		when = "whenever its when: holds"
	}
	fails := "this element fails to render " + when + ", and the turn with it"
	hint := cmp.Or(ternaryHint(src, err, fails), "; upstream loads the story but "+fails) + viewNamespaceHint(err)
	c.rep.WarnAt(c.errAt(p, src, err), pc.at, ruleViewRender, "%s: %s%s", where, err.Error(), hint)
}

func (pc *pongoCheck) state(s *story.State) {
	if e, ok := s.Keys["footer"]; ok {
		pc.compile(e, func() string { return "state " + strconv.Quote(s.Path) + " footer" }, s.Footer())
	}
	eachView(s, func(v *story.View, _ elemPlace) { pc.view(s, v) })
	pc.c.eachViewElement(s, func(el *story.ViewElement, where elemPlace) {
		w := func() string { return "state " + strconv.Quote(s.Path) + " " + where.String() }
		if el.Text != "" {
			pc.compileView(or(el.TextPos, el.Pos), w, el.Text, el.When != "")
		}
		walkStrings(el.Body, "", func(_, str string) { pc.compileView(or(el.StringPos(str), el.Pos), w, str, el.When != "") })
	})
}

// view checks one view: a template compiles, a layout or template file
// exists under views/ (else a warning) and is queued.
func (pc *pongoCheck) view(s *story.State, v *story.View) {
	c := pc.c
	switch v.Kind {
	case "template":
		err := pc.compiled(compiledPongoView, pc.viewLoader, v.Template)
		pc.report(v.Pos, func() string { return "state " + strconv.Quote(s.Path) + " view" }, v.Template, "this view fails to render, and the turn that shows it", err, viewNamespaceHint(err))
	case "extends", "template_file":
		name, file, what := v.TemplateFile, v.TemplateFile, "template_file %q: views/%s"
		if v.Kind == "extends" {
			name, file, what = v.Extends, v.Extends+".pongo", "extends %q: layout file views/%s"
		}
		if name == "" || story.IsTemplated(name) {
			return
		}
		f := filepath.Join(c.st.Dir, "views", file)
		if !pc.fileExists(f) {
			c.rep.WarnAt(v.Pos, diag.StatePlace(s.Path), rulePongo, "state %q: view "+what+" not found: views are looked for under views/ only (not in a prompts overlay), so the turn that shows this state fails", s.Path, name, file)
			return
		}
		pc.addFile(f, v.Pos)
	}
}

// compileFiles compiles every queued template file, reporting an error at
// its token in the file.
func (pc *pongoCheck) compileFiles() {
	c := pc.c
	for f, p := range pc.files {
		var src []byte
		var rerr error
		if pc.prompts[f] {
			if src, rerr = c.readStory(f); errors.Is(rerr, safefile.ErrOutsideRoot) {
				continue // prompt-root reports it
			}
		} else if s, err, in := c.readNamed(p, "template file", c.displayPath(f), f); in {
			src, rerr = s, err
		} else {
			continue
		}
		kind := compiledPongoView
		if pc.prompts[f] {
			kind = compiledPongo
		}
		var err error
		if rerr == nil {
			err = pc.checkFile(kind, f, src)
		} else if overReads(rerr) {
			err = rerr // (CompileFile would read it)
		} else {
			_, err = pc.loaderOf(kind).CompileFile(f) // reports the read error
		}
		if err == nil {
			continue
		}
		var ee *expr.Error
		if errors.As(err, &ee) && ee.Line > 0 && ee.Col > 0 && strings.Contains(ee.Msg, " "+f+":") {
			hint := ternaryHint(string(src), err, "this template fails to render")
			if hint == "" && pongoSeverity(err) == diag.Error {
				hint = "; upstream loads the story, and the call that renders this template fails at run time"
			} else if hint == "" && errors.Is(err, expr.ErrNoNamespace) {
				hint = "; upstream loads the story, and the call that renders this template fails here at run time (a prompt knows the namespaces @story/ and @shared/ only)"
			}
			c.rep.Add(story.Pos{File: c.displayPath(f), Line: ee.Line, Col: ee.Col}, pongoSeverity(err), rulePongo, "%s (referenced at %s:%d:%d)%s", err.Error(), p.File, p.Line, p.Col, hint)
			continue
		}
		c.rep.Add(p, pongoSeverity(err), rulePongo, "%s", err.Error())
	}
}

// pongoSeverity: upstream compiles a template only when it renders it, so
// a finding is a warning, except what kitsoki refuses (a template outside
// the roots, a file it will not read).
func pongoSeverity(err error) diag.Severity {
	if errors.Is(err, expr.ErrNoNamespace) {
		return diag.Warning // upstream loads it (conformance view-at-name-plain)
	}
	if errors.Is(err, expr.ErrOutsideRoots) || errors.Is(err, safefile.ErrTooLarge) || strings.Contains(err.Error(), "not a regular file") {
		return diag.Error
	}
	return diag.Warning
}

// walkStrings calls fn on every string in a raw value tree with its path
// (".key" per map it is below), map keys in order.
func walkStrings(v any, path string, fn func(path, s string)) {
	switch x := v.(type) {
	case string:
		fn(path, x)
	case []any:
		for _, it := range x {
			walkStrings(it, path, fn)
		}
	case map[string]any:
		for _, k := range sortedMapKeys(x) {
			walkStrings(x[k], path+"."+k, fn)
		}
	}
}

// sortedMapKeys returns the keys of m sorted (nil for an empty map).
func sortedMapKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// ternaryRe finds a `? … :` inside a {{ }} tag.
var ternaryRe = &lazyre.Regexp{Expr: `\{\{[^}]*\?[^}]*:[^}]*\}\}`}

// ternaryHint explains a pongo2 error caused by an inline `a ? b : c`;
// fails says what then happens at run time.
func ternaryHint(src string, err error, fails string) string {
	if !ternaryRe.MatchString(src) || !strings.Contains(err.Error(), "'}}' expected") {
		return ""
	}
	return "; pongo2 has no inline ternary: " + fails + "; use {% if %}…{% else %}…{% endif %}"
}

func or(p, fallback story.Pos) story.Pos {
	if p.Line > 0 {
		return p
	}
	return fallback
}

// displayPath names a file of the story directory as the manifest is
// named (relative when it is).
func (c *checker) displayPath(abs string) string {
	rel, err := filepath.Rel(c.st.Dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return abs
	}
	return filepath.Join(filepath.Dir(c.st.File), rel)
}
