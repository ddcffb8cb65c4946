package view

import (
	"fmt"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
	"strings"
)

// renderElements lays out a typed element list as plain text (story-runtime
// §8): each element renders to a block, an element whose when: is false is
// omitted, and the non-empty blocks are joined by one blank line.
func (r *Renderer) renderElements(els []*story.ViewElement, where string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	var parts []string
	for i, el := range els {
		if el == nil {
			continue
		}
		what := fmt.Sprintf("%s[%d] (%s)", where, i, el.Kind)
		if el.When != "" {
			ok, err := r.guard(el.When, env)
			if err != nil {
				r.warnf(&Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("when %q: %v; the element is omitted", el.When, err), Err: err})
				continue
			}
			if !ok {
				continue
			}
		}
		text, err := r.renderElement(el, what, dl, s, env)
		if err != nil {
			return "", err
		}
		text = strings.TrimRight(text, " \t\r\n")
		if strings.TrimSpace(text) == "" {
			continue
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n"), nil
}

func (r *Renderer) warnf(err error) {
	if r.warn != nil {
		r.warn(err)
	}
}

func (r *Renderer) renderElement(el *story.ViewElement, what string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	leaf := func(src, part string) (string, error) {
		return dl.renderLeaf(src, env, el.Pos, s.Path, what+part)
	}
	body, _ := el.Body.(map[string]any)
	switch el.Kind {
	case "heading", "code", "template":
		return leaf(el.Text, "")
	case "prose":
		t, err := leaf(el.Text, "")
		if err != nil {
			return "", err
		}
		return wordWrap(strings.TrimRight(t, " \t\r\n"), r.width), nil
	case "list":
		return r.renderList(el, body, what, dl, s, env)
	case "kv":
		return r.renderKV(el, body, leaf)
	case "banner":
		return r.renderBanner(body, leaf)
	case "choice":
		return r.renderChoice(el, body, what, dl, s, env)
	case "media":
		return renderMedia(body, leaf)
	}
	return "", &Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("unknown element kind %q (expected one of prose / heading / list / kv / code / template / banner / choice / media)", el.Kind)}
}

// str reads a string field of an element body ("" when absent; scalars
// other than strings are printed as YAML wrote them).
func str(m map[string]any, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// renderList prints one "• item" line per item; items with a hint align
// the hints two cells after the longest label.
func (r *Renderer) renderList(el *story.ViewElement, body map[string]any, what string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	marker := listMarker(str(body, "marker"))
	items, _ := body["items"].([]any)
	var rows []labelRow
	for j, it := range items {
		part := fmt.Sprintf("%s.items[%d]", what, j)
		var label, hint string
		switch x := it.(type) {
		case string:
			label = x
		case map[string]any:
			if w := str(x, "when"); w != "" {
				ok, err := r.guard(w, env)
				if err != nil {
					r.warnf(&Error{Pos: el.Pos, State: s.Path, What: part, Msg: fmt.Sprintf("when %q: %v; the item is omitted", w, err), Err: err})
					continue
				}
				if !ok {
					continue
				}
			}
			label, hint = str(x, "label"), str(x, "hint")
		case nil:
			continue
		default:
			label = fmt.Sprint(x)
		}
		var err error
		if label, err = dl.renderLeaf(label, env, el.Pos, s.Path, part+".label"); err != nil {
			return "", err
		}
		if hint, err = dl.renderLeaf(hint, env, el.Pos, s.Path, part+".hint"); err != nil {
			return "", err
		}
		rows = append(rows, labelRow{label, hint})
	}
	col := labelWidth(rows)
	var b strings.Builder
	for i, rw := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(marker(i))
		b.WriteString(rw.label)
		if rw.hint != "" {
			b.WriteString(strings.Repeat(" ", col-textWidth(rw.label)+2))
			b.WriteString(rw.hint)
		}
	}
	return b.String(), nil
}

// listMarker maps a list's marker: to its line prefix: the default and
// "bullet" give "• ", "number"/"numbered"/"ordered" give "1. ", "2. ", …,
// "none" gives nothing, and any other text is used as written.
func listMarker(m string) func(int) string {
	switch strings.ToLower(strings.TrimSpace(m)) {
	case "", "bullet", "bullets", "dot", "•":
		return func(int) string { return "• " }
	case "number", "numbers", "numbered", "ordered", "1", "1.":
		return func(i int) string { return fmt.Sprintf("%d. ", i+1) }
	case "none":
		return func(int) string { return "" }
	case "dash", "-":
		return func(int) string { return "- " }
	}
	return func(int) string { return m + " " }
}

// renderKV aligns values two cells after the longest "key:"; a value is
// word-wrapped to the remaining width, continuation lines indented to the
// value column.
func (r *Renderer) renderKV(el *story.ViewElement, body map[string]any, leaf func(string, string) (string, error)) (string, error) {
	pairs, _ := body["pairs"].(map[string]any)
	keys := r.order.kvKeys(el, pairs)
	col := 0
	for _, k := range keys {
		if w := textWidth(k) + 1; w > col {
			col = w
		}
	}
	col += 2
	var b strings.Builder
	for i, k := range keys {
		raw := pairs[k]
		src, ok := raw.(string)
		if !ok && raw != nil {
			src = fmt.Sprint(raw)
		}
		val, err := leaf(src, ".pairs."+k)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k + ":")
		b.WriteString(strings.Repeat(" ", col-textWidth(k)-1))
		if r.width-col > 0 {
			val = wordWrap(val, r.width-col)
		}
		b.WriteString(strings.ReplaceAll(val, "\n", "\n"+strings.Repeat(" ", col)))
	}
	return trimLines(b.String()), nil
}

// renderBanner prints a ═ rule, "  TEXT  ·  subtitle", and the rule again;
// the rule is two cells wider than the text line, at least 40 and at most
// the layout width.
func (r *Renderer) renderBanner(body map[string]any, leaf func(string, string) (string, error)) (string, error) {
	text, err := leaf(str(body, "text"), ".text")
	if err != nil {
		return "", err
	}
	sub, err := leaf(str(body, "subtitle"), ".subtitle")
	if err != nil {
		return "", err
	}
	line := "  " + text
	if sub != "" {
		line += "  ·  " + sub
	}
	w := textWidth(line) + 2
	if w < 40 {
		w = 40
	}
	if w > r.width {
		w = r.width
	}
	rule := strings.Repeat("═", w)
	return rule + "\n" + line + "\n" + rule, nil
}

// renderMedia prints a media element as its caption (or handle) and,
// when set, its path in parentheses.
func renderMedia(body map[string]any, leaf func(string, string) (string, error)) (string, error) {
	caption, err := leaf(str(body, "caption"), ".caption")
	if err != nil {
		return "", err
	}
	handle, err := leaf(str(body, "handle"), ".handle")
	if err != nil {
		return "", err
	}
	path, err := leaf(str(body, "path"), ".path")
	if err != nil {
		return "", err
	}
	label := caption
	if label == "" {
		label = handle
	}
	out := "[" + label + "]"
	if path != "" {
		out += " (" + path + ")"
	}
	return out, nil
}

// labelRow is one row of a list or choice laid out as label and hint.
type labelRow struct{ label, hint string }

// labelWidth is the width of the widest label: the hint column starts past it.
func labelWidth(rows []labelRow) int {
	col := 0
	for _, rw := range rows {
		col = max(col, textWidth(rw.label))
	}
	return col
}
