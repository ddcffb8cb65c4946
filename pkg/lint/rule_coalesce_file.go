package lint

import (
	"path/filepath"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleCoalesceFile = &Rule{ID: "coalesce-in-file", Severity: diag.Warning, LintOnly: true,
	Summary: "a template file a view or say: reads (template_file, extends layout, include, import) uses ` ?? `, which the existing engine rewrites only in a story's own text: there every render that reaches the file fails",
	Example: "view: {template_file: t.pongo}   # views/t.pongo: {{ world.x ?? \"none\" }}"}

// maxCoalesceFiles bounds the template files one check follows.
const maxCoalesceFiles = 512

// checkCoalesceFiles warns at each ` ?? ` inside a tag of a template file
// a view or a say: reaches by a literal name: a template_file:, an
// extends: layout, and what an inline template or such a file includes,
// imports or extends. Both engines rewrite ` ?? ` to |default: in a
// view's, an element's or a say:'s own text; the existing engine reads a
// file as written, so pongo2 fails to parse it there ('}}' expected, or
// "If-condition is malformed") and
// the turn that renders it fails (its test flows stops the run). Ours
// rewrites files too and renders them. A name held in a variable is not
// followed.
func checkCoalesceFiles(c *checker) {
	cf := &coalesceFiles{c: c, seen: map[string]bool{}}
	views := filepath.Join(c.st.Dir, "views")
	vl := expr.NewPongoLoader(views)
	vl.Confine(c.st.Dir)
	for _, s := range c.states() {
		eachView(s, func(v *story.View, _ elemPlace) {
			switch v.Kind {
			case "template":
				cf.follow(vl, "", v.Template, v.Pos)
			case "extends", "template_file":
				name := v.TemplateFile
				if v.Kind == "extends" {
					name = v.Extends + ".pongo"
				}
				if name != ".pongo" && name != "" && !story.IsTemplated(name) {
					if f, ok := vl.Resolve("", name); ok {
						cf.file(vl, f, v.Pos)
					}
				}
			}
		})
		c.eachViewElement(s, func(el *story.ViewElement, _ elemPlace) {
			cf.follow(vl, "", el.Text, or(el.TextPos, el.Pos))
			walkStrings(el.Body, "", func(_, str string) { cf.follow(vl, "", str, or(el.StringPos(str), el.Pos)) })
		})
	}
	sl := expr.NewPongoLoader(c.st.Dir) // a say: searches the story directory (rule_pongo.go)
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Say != "" && !site.Template {
			cf.follow(sl, "", e.Say, e.PosOf("say"))
		}
	})
}

// coalesceFiles is one run of checkCoalesceFiles: the files already read.
type coalesceFiles struct {
	c    *checker
	seen map[string]bool
}

// follow reads the files src (held in base, "" for a story's own text)
// names literally, each at most once.
func (cf *coalesceFiles) follow(l *expr.PongoLoader, base, src string, ref story.Pos) {
	for _, name := range expr.LiteralIncludes(src) {
		if story.IsTemplated(name) {
			continue
		}
		if f, ok := l.Resolve(base, name); ok {
			cf.file(l, f, ref)
		}
	}
}

// file reports the first ` ?? ` of the template file f and follows what it
// names.
func (cf *coalesceFiles) file(l *expr.PongoLoader, f string, ref story.Pos) {
	if cf.seen[f] || len(cf.seen) >= maxCoalesceFiles {
		return
	}
	cf.seen[f] = true
	b, err := cf.c.readStory(f)
	if err != nil {
		return // rule pongo reports a file it cannot read
	}
	src := string(b)
	if line, col := expr.CoalesceInTag(src); line > 0 {
		at := story.Pos{File: cf.c.displayPath(f), Line: line, Col: col}
		text := strings.TrimSpace(strings.Split(src, "\n")[line-1])
		if r := []rune(text); len(r) > 80 {
			text = string(r[:77]) + "..."
		}
		cf.c.rep.Warnf(at, ruleCoalesceFile, "%q: ` ?? ` in a template file (referenced at %s:%d:%d): kitsoki rewrites it to |default: as in a story's own text, but the existing engine reads a file as written, so pongo2 fails to parse it there and every turn that renders it fails (its test flows stops the run); write |default: (`{{ world.x|default:\"none\" }}`)",
			text, ref.File, ref.Line, ref.Col)
	}
	cf.follow(l, f, src, ref)
}
