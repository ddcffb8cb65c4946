package story

import (
	"errors"
	"os"
	"path/filepath"
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
			c.rep.add(p, pongoSeverity(err), rulePongo, "%s: %s", where, errMsg(err))
		}
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
				compile(el.Pos, w, el.Text)
			}
			walkStrings(el.Body, func(str string) { compile(el.Pos, w, str) })
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
					files[f] = e.keyPos("with")
				}
			}
		}
	})
	for f, p := range files {
		if _, err := pl.CompileFile(f); err != nil {
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
		for _, k := range sortedKeys(x) {
			walkStrings(x[k], fn)
		}
	}
}
