package expr

import (
	"strings"
	"testing"
)

// As upstream (probed on the existing engine), {{ if }}, {{ range }},
// {{ else }} and {{ end }} are block keywords alone or followed by a space;
// after a tab, a line break or "(" the tag is an expression, and these
// templates do not load. A keyword followed by a space opens a block even
// when an expr-lang if-expression follows: that one loads only in
// parentheses.
func TestTemplateKeywordNeedsSpace(t *testing.T) {
	refused := map[string]string{
		"{{ range\tworld.l }}{{ item }}{{ end }}":        "range is a block keyword",
		"{{ range\nworld.l }}{{ item }}{{ end }}":        "range is a block keyword",
		"{{ range\rworld.l }}{{ item }}{{ end }}":        "range is a block keyword",
		"{{ range(world.l) }}{{ item }}{{ end }}":        "range is a block keyword",
		"{{ if\tworld.b }}y{{ else }}n{{ end }}":         "if is a block keyword",
		"{{ if\nworld.b }}y{{ end }}":                    "if is a block keyword",
		"{{ if(world.b) }}y{{ else }}n{{ end }}":         "if is a block keyword",
		"{{ if world.b }}y{{ else\tfoo }}n{{ end }}":     "else is a block keyword",
		"{{ if world.b }}y{{ else\nfoo }}n{{ end }}":     "else is a block keyword",
		"{{ if world.b }}y{{ else }}n{{ end\tfoo }}":     "end is a block keyword",
		"{{ if world.b }}y{{ else }}n{{ end(1) }}":       "end is a block keyword",
		"{{\nrange\nworld.l\n}}{{\n.n\n}};{{\nend\n}}\n": "range is a block keyword",
		"{{ if world.b { 'a' } else { 'b' } }}":          "needs parentheses",
		"{{ if true {'a'} else {'b'} }}x{{ end }}":       "needs parentheses",
	}
	for src, want := range refused {
		_, err := CompileTemplate(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CompileTemplate(%q) = %v, want an error with %q", src, err, want)
		}
	}
	for _, src := range []string{
		"{{ range  world.l }}{{ item }}{{ end }}",
		"{{\n range world.l }}{{ item }}{{ end }}",
		"{{\trange world.l }}{{ item }}{{ end }}",
		"{{\nif world.b }}y{{ else }}n{{ end }}",
		"{{ if world.b }}y{{\nelse\n}}n{{\nend\n}}",
		"{{ if world.b }}y{{\telse\t}}n{{ end\t}}",
		"{{ if world.b }}y{{ else foo }}n{{ end }}",
		"{{ range \nworld.l }}{{ item }}{{ end }}",
		"{{ range \r\nworld.l }}{{ item }}{{ end }}",
		"{{ range (world.l) }}{{ item }}{{ end }}",
		"{{ if \tworld.b }}y{{ else \n}}n{{ end \t}}",
		"{{\vif world.b }}y{{ else\v}}n{{ end\f}}",
		"{{ (if world.b { 'a' } else { 'b' }) }}",
		"{{ if\tworld.b { 'a' } else { 'b' } }}",
	} {
		if _, err := CompileTemplate(src); err != nil {
			t.Errorf("CompileTemplate(%q): %v", src, err)
		}
	}
}
