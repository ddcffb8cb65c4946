package story

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story/expr"
)

// checkPongo: pongo2 templates in say:, footer:, view bodies, view layouts
// (views/<extends>.pongo, template_file) and prompt files of agent invokes
// compile (reference §6.3). Include/extends targets that cannot be found
// and unknown filters are warnings: upstream resolves them through search
// paths and namespaces that are only known at run time.
func checkPongo(c *checker) {
	pl := expr.NewPongoLoader(filepath.Join(c.st.Dir, "prompts"), filepath.Join(c.st.Dir, "views"), c.st.Dir)
	pl.AddNamespace("@story", c.st.Dir)
	if c.st.Prompts != nil {
		for _, d := range c.st.Prompts.Shared {
			pl.AddNamespace("@shared", filepath.Join(c.st.Dir, d))
		}
	}
	seen := map[string]error{}
	compile := func(p Pos, where, src string) {
		if !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
			return
		}
		err, ok := seen[src]
		if !ok {
			_, err = pl.Compile(src)
			seen[src] = err
		}
		if err != nil {
			c.rep.add(c.errAt(p, src, err), pongoSeverity(err), rulePongo, "%s: %s%s", where, errMsg(err), ternaryHint(src, err, ""))
		}
	}
	// A view element that does not compile loads upstream (views are
	// rendered, and compiled, only when shown): the rule says what happens
	// at run time.
	compileView := func(p Pos, where, src string, guarded bool) {
		if !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
			return
		}
		err, ok := seen[src]
		if !ok {
			_, err = pl.Compile(src)
			seen[src] = err
		}
		if err == nil {
			return
		}
		if sev := pongoSeverity(err); sev == diag.Warning {
			c.rep.add(c.errAt(p, src, err), sev, rulePongo, "%s: %s", where, errMsg(err))
			return
		}
		when := "whenever it is shown"
		if guarded {
			when = "whenever its when: holds"
		}
		hint := ternaryHint(src, err, when)
		if hint == "" {
			hint = "; upstream loads the story but this element fails to render " + when + " (the turn records no view)"
		}
		c.rep.errf(c.errAt(p, src, err), ruleViewRender, "%s: %s%s", where, errMsg(err), hint)
	}
	files := map[string]Pos{}
	if ctx := c.st.App.Context; ctx != "" {
		compile(c.st.App.Pos, "app.context", ctx)
	}
	if cp := c.st.App.ContextPath; cp != "" && !isTemplated(cp) {
		if f, ok := c.existingFile(cp); ok {
			files[f] = c.st.App.Pos
		}
	}
	for _, s := range c.st.AllStates() {
		if e, ok := s.Keys["footer"]; ok {
			compile(e, "state "+quote(s.Path)+" footer", s.Footer)
		}
		views := []*View{s.View}
		for _, in := range s.OnOrder {
			for _, t := range s.On[in] {
				views = append(views, t.View)
			}
		}
		for _, v := range views {
			if v == nil {
				continue
			}
			switch v.Kind {
			case "template":
				compile(v.Pos, "state "+quote(s.Path)+" view", v.Template)
			case "extends":
				if v.Extends != "" && !isTemplated(v.Extends) {
					f := filepath.Join(c.st.Dir, "views", v.Extends+".pongo")
					if _, err := os.Stat(f); err != nil {
						c.rep.warnf(v.Pos, rulePongo, "state %q: view extends %q: layout file views/%s.pongo not found in the story (it must come from a prompts overlay at run time)", s.Path, v.Extends, v.Extends)
					} else if _, seen := files[f]; !seen {
						files[f] = v.Pos
					}
				}
			case "template_file":
				if v.TemplateFile != "" && !isTemplated(v.TemplateFile) {
					f := filepath.Join(c.st.Dir, "views", v.TemplateFile)
					if _, err := os.Stat(f); err != nil {
						c.rep.warnf(v.Pos, rulePongo, "state %q: view template_file %q: views/%s not found in the story (it must come from a prompts overlay at run time)", s.Path, v.TemplateFile, v.TemplateFile)
					} else if _, seen := files[f]; !seen {
						files[f] = v.Pos
					}
				}
			}
		}
		c.eachViewElement(s, func(el *ViewElement, where string) {
			w := "state " + quote(s.Path) + " " + where
			if el.Text != "" {
				compileView(or(el.TextPos, el.Pos), w, el.Text, el.When != "")
			}
			walkStrings(el.Body, func(str string) { compileView(or(el.StrPos[str], el.Pos), w, str, el.When != "") })
		})
	}
	c.eachEffect(func(e *Effect, site effSite) {
		if e.Say != "" && !site.Template {
			compile(e.keyPos("say"), site.Loc+": say", e.Say)
		}
		if !strings.HasPrefix(e.Invoke, "host.agent.") {
			return
		}
		for _, ref := range promptRefs(e) {
			if f, ok := c.existingFile(ref.path); ok && ref.isFile {
				if _, seen := files[f]; !seen {
					files[f] = e.withPos(ref.key)
				}
			}
		}
	})
	for f, p := range files {
		if _, err := pl.CompileFile(f); err != nil {
			// An error inside the template file is reported there, at
			// its token; the referencing with: value is named.
			var ee *expr.Error
			if errors.As(err, &ee) && ee.Line > 0 && ee.Col > 0 && strings.Contains(ee.Msg, " "+f+":") {
				src, _ := os.ReadFile(f)
				hint := ternaryHint(string(src), err, "")
				if hint == "" && pongoSeverity(err) == diag.Error {
					hint = "; upstream loads the story, and the call that renders this template fails at run time"
				}
				c.rep.add(Pos{File: c.displayPath(f), Line: ee.Line, Col: ee.Col}, pongoSeverity(err), rulePongo, "%s (referenced at %s:%d:%d)%s", errMsg(err), p.File, p.Line, p.Col, hint)
				continue
			}
			c.rep.add(p, pongoSeverity(err), rulePongo, "%s", errMsg(err))
		}
	}
}

func pongoSeverity(err error) diag.Severity {
	// A template reaching outside the story's template roots is always an
	// error: run refuses it, whatever the path's words say.
	if errors.Is(err, expr.ErrOutsideRoots) {
		return diag.Error
	}
	m := err.Error()
	for _, s := range []string{"include", "extends", "no such file", "does not exist", "not found", "Filter", "filter"} {
		if strings.Contains(m, s) {
			return diag.Warning
		}
	}
	return diag.Error
}

// walkStrings calls fn on every string in a raw value tree.
func walkStrings(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		fn(x)
	case []any:
		for _, it := range x {
			walkStrings(it, fn)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkStrings(x[k], fn)
		}
	}
}

// ternaryRe finds a `? … :` inside a {{ }} tag.
var ternaryRe = regexp.MustCompile(`\{\{[^}]*\?[^}]*:[^}]*\}\}`)

// ternaryHint explains a pongo2 error caused by an inline `a ? b : c`.
func ternaryHint(src string, err error, when string) string {
	if !ternaryRe.MatchString(src) || !strings.Contains(err.Error(), "'}}' expected") {
		return ""
	}
	if when == "" {
		return "; pongo2 has no inline ternary: this template fails to render; use {% if %}…{% else %}…{% endif %}"
	}
	return "; pongo2 has no inline ternary: this element fails to render " + when + "; use {% if %}…{% else %}…{% endif %}"
}

func or(p, fallback Pos) Pos {
	if p.Line > 0 {
		return p
	}
	return fallback
}

// displayPath names a file of the story directory the way the manifest is
// named (relative when the manifest path is).
func (c *checker) displayPath(abs string) string {
	rel, err := filepath.Rel(c.st.Dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return abs
	}
	return filepath.Join(filepath.Dir(c.st.File), rel)
}
