package phases

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
)

// binding is what one phases.graph entry substitutes into its template:
// {param} placeholders, {{ tpl.<param> }}, {{ phase.next.<arc> }} and
// {{ phase.id }}.
type binding struct {
	id     string
	params map[string]any  // every name {name} / tpl.name may use
	unset  map[string]bool // declared, optional, no default, not given: renders ""
	next   any             // the entry's next: as written
	probs  *problems
	where  string // phases.graph["<id>"]
}

var (
	nameRe     = &lazyre.Regexp{Expr: `^[A-Za-z_][A-Za-z0-9_]*$`}
	exactTagRe = &lazyre.Regexp{Expr: `^\{\{-?\s*(tpl\.[A-Za-z_][A-Za-z0-9_]*|phase\.next\.[A-Za-z_][A-Za-z0-9_]*|phase\.id)\s*-?\}\}$`}
	refRe      = &lazyre.Regexp{Expr: `(^|[^A-Za-z0-9_.])(tpl\.[A-Za-z_][A-Za-z0-9_]*|phase\.next\.[A-Za-z_][A-Za-z0-9_]*|phase\.id)\b`}
)

// text substitutes every placeholder of s. key reports that s is a state
// key, where an unknown {name} is an error instead of literal text.
func (b *binding) text(s string, p story.Pos, key bool) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "{%") {
			closer := "}}"
			if s[i+1] == '%' {
				closer = "%}"
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				end := i + 2 + j + 2
				t := s[i:end]
				if exactTagRe.MatchString(t) {
					// raw text in place of the tag; its {{- / -}} trims
					// the whitespace around it as pongo2 would have
					if strings.HasPrefix(t, "{{-") {
						trimmed := strings.TrimRight(out.String(), " \t\r\n")
						out.Reset()
						out.WriteString(trimmed)
					}
					out.WriteString(b.tag(t, p))
					i = end
					if strings.HasSuffix(t, "-}}") {
						for i < len(s) && strings.ContainsRune(" \t\r\n", rune(s[i])) {
							i++
						}
					}
					continue
				}
				out.WriteString(b.tag(t, p))
				i = end
				continue
			}
		}
		if s[i] == '{' {
			if j := strings.IndexByte(s[i+1:], '}'); j >= 0 {
				name := s[i+1 : i+1+j]
				if nameRe.MatchString(name) {
					if v, ok := b.param(name); ok {
						out.WriteString(v)
						i += j + 2
						continue
					}
					if key {
						b.probs.add(p, "%s: state key %q: {%s} is not a parameter of the template (declare it under parameters: or give it in the graph entry)", b.where, s, name)
					}
				}
			}
		}
		out.WriteByte(s[i])
		i++
	}
	return out.String()
}

// param is the text of {name}.
func (b *binding) param(name string) (string, bool) {
	if v, ok := b.params[name]; ok {
		return scalar(v), true
	}
	if b.unset[name] {
		return "", true
	}
	return "", false
}

// tag substitutes one pongo2 tag ({{ … }} or {% … %}). The exact forms
// {{ tpl.x }}, {{ phase.next.a }} and {{ phase.id }} become the raw value
// (so they also work inside expressions and targets); any other tag
// referring to them gets a pongo2 literal in their place.
func (b *binding) tag(t string, p story.Pos) string {
	if m := exactTagRe.FindStringSubmatch(t); m != nil {
		v, _ := b.ref(m[1], p, true)
		return scalar(v)
	}
	inner := t[2 : len(t)-2]
	inner = refRe.ReplaceAllStringFunc(inner, func(m string) string {
		sub := refRe.FindStringSubmatch(m)
		v, ok := b.ref(sub[2], p, false)
		if !ok {
			return m
		}
		return sub[1] + literal(v)
	})
	// {param} placeholders inside a tag ({{ world.{id}_n }}).
	var out strings.Builder
	for i := 0; i < len(inner); {
		if inner[i] == '{' {
			if j := strings.IndexByte(inner[i+1:], '}'); j >= 0 {
				if name := inner[i+1 : i+1+j]; nameRe.MatchString(name) {
					if v, ok := b.param(name); ok {
						out.WriteString(v)
						i += j + 2
						continue
					}
				}
			}
		}
		out.WriteByte(inner[i])
		i++
	}
	return t[:2] + out.String() + t[len(t)-2:]
}

// ref looks up tpl.<param>, phase.next.<arc> or phase.id. A missing
// next: arc is an error in the exact form; inside a larger tag
// (`{{ phase.next.skip | default:"lobby" }}`) it is the empty string, so
// a filter can supply the fallback.
func (b *binding) ref(r string, p story.Pos, exact bool) (any, bool) {
	switch {
	case r == "phase.id":
		return b.id, true
	case strings.HasPrefix(r, "tpl."):
		name := strings.TrimPrefix(r, "tpl.")
		if v, ok := b.params[name]; ok {
			return v, true
		}
		if b.unset[name] {
			return "", true
		}
		b.probs.add(p, "%s: {{ tpl.%s }}: %q is not a parameter of the template (declare it under parameters: or give it in the graph entry)", b.where, name, name)
		return "", false
	default:
		arc := strings.TrimPrefix(r, "phase.next.")
		if !exact {
			if m, ok := b.next.(map[string]any); ok || b.next == nil {
				if v, has := m[arc]; has {
					return v, true
				}
				return "", true
			}
		}
		if b.next == nil {
			b.probs.add(p, "%s: {{ phase.next.%s }}: the entry has no next: (add next: {%s: <state>})", b.where, arc, arc)
			return "", false
		}
		m, ok := b.next.(map[string]any)
		if !ok {
			b.probs.add(p, "%s: {{ phase.next.%s }}: next: must be a mapping of arc name to state (got %s)", b.where, arc, scalar(b.next))
			return "", false
		}
		v, ok := m[arc]
		if !ok {
			b.probs.add(p, "%s: {{ phase.next.%s }}: next: has no %q arc (it has %s)", b.where, arc, arc, arcs(m))
			return "", false
		}
		return v, true
	}
}

func arcs(m map[string]any) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// scalar is the text a value substitutes as.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case map[string]any, []any:
		data, err := json.Marshal(x)
		if err == nil {
			return string(data)
		}
	}
	return fmt.Sprint(v)
}

// literal is v as a pongo2 literal (strings quoted).
func literal(v any) string {
	switch v.(type) {
	case bool, int, int64, uint64, float64:
		return scalar(v)
	}
	return strconv.Quote(scalar(v))
}
