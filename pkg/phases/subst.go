package phases

import (
	"fmt"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
)

// binding is what one phases.graph entry substitutes into its template.
type binding struct {
	params map[string]any // every name {name} / tpl.name may use
	next   any            // the entry's next: as written
	probs  *problems
	where  string // phases.graph["<id>"]
}

var (
	// keyParamRe is a {name} placeholder of a state key.
	keyParamRe = &lazyre.Regexp{Expr: `\{([A-Za-z_][A-Za-z0-9_]*)\}`}
	// bodyRefRe is a reference the expansion replaces anywhere in a string.
	bodyRefRe = &lazyre.Regexp{Expr: `\{\{\s*(tpl|phase\.next)\.(\w+)\s*\}\}`}
)

// key substitutes the {name} placeholders of a state key; each must be a
// parameter the entry has. {{ }} tags in a key are left as written.
func (b *binding) key(s string, p story.Pos) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return keyParamRe.ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		if v, ok := b.params[name]; ok {
			return text(v)
		}
		b.probs.add(p, "%s: state name %q: unknown parameter %q (declare it under parameters: with a default, or give it in the graph entry)", b.where, s, name)
		return m
	})
}

// bodyIf substitutes every {{ tpl.<param> }} and {{ phase.next.<arc> }}
// tag of s by its raw text in one pass, even inside another tag; one
// without a value is left as written, and nothing else is substituted. The
// text is built only when fits (nil: any) takes its length, else ("",
// false); a text whose length does not change is not asked about. One
// scan finds the tags, for the length and the text.
func (b *binding) bodyIf(s string, fits func(n int) bool) (string, bool) {
	if !strings.Contains(s, "{{") {
		return s, true
	}
	tags := bodyRefRe.Get().FindAllStringSubmatchIndex(s, -1)
	subs := make([]string, len(tags))
	n := len(s)
	for i, m := range tags {
		subs[i] = b.ref(s[m[0]:m[1]], s[m[2]:m[3]], s[m[4]:m[5]])
		n += len(subs[i]) - (m[1] - m[0])
	}
	if n != len(s) && fits != nil && !fits(n) {
		return "", false
	}
	if len(tags) == 0 {
		return s, true
	}
	var out strings.Builder
	out.Grow(n)
	last := 0
	for i, m := range tags {
		out.WriteString(s[last:m[0]])
		out.WriteString(subs[i])
		last = m[1]
	}
	out.WriteString(s[last:])
	return out.String(), true
}

// ref is the text that replaces the tag m, whose kind is tpl or
// phase.next, naming name.
func (b *binding) ref(m, kind, name string) string {
	if kind == "tpl" {
		if v, ok := b.params[name]; ok {
			return text(v)
		}
		return m
	}
	next, _ := b.next.(map[string]any)
	if v, ok := next[name]; ok {
		return executing(text(v))
	}
	return m
}

// executing is <name>_executing, or name itself when it ends a run.
func executing(name string) string {
	switch name {
	case "", "terminated", "ended", "completed", "abandoned", "failed":
		return name
	}
	if strings.HasPrefix(name, "ended_") {
		return name
	}
	return name + "_executing"
}

// text is a value's substitution text: Go's %v, as upstream prints it.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
