package view

import (
	"cmp"
	"fmt"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
	"kitsoki/pkg/view/textwrap"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// renderElements lays out a typed element list as upstream's plain text:
// blocks joined by a blank line (two kv blocks by a newline), empty omitted.
func (r *Renderer) renderElements(els []*story.ViewElement, where string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	var b strings.Builder
	prevKV := false
	for i, el := range els {
		if el == nil {
			continue
		}
		what := fmt.Sprintf("%s[%d] (%s)", where, i, el.Kind)
		if hide, err := r.hidden(elementWhen(el), el, s, what, "element", env); err != nil {
			return "", err
		} else if hide {
			continue
		}
		text, err := r.renderElement(el, what, dl, s, env)
		if err != nil {
			return "", err
		}
		if text == "" {
			continue
		}
		kv := el.Kind == "kv"
		switch {
		case b.Len() == 0:
		case kv && prevKV:
			b.WriteByte('\n')
		default:
			b.WriteString("\n\n")
		}
		b.WriteString(text)
		prevKV = kv
	}
	return b.String(), nil
}

// elementWhen is the when: that shows or hides el: a choice whose body
// holds a when: is shown by that one (conformance view-choice-body-when).
func elementWhen(el *story.ViewElement) string {
	if body, ok := el.Body.(map[string]any); ok && el.Kind == "choice" {
		if _, ok := body["when"]; ok {
			return str(body, "when")
		}
	}
	return el.When
}

func (r *Renderer) renderElement(el *story.ViewElement, what string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	leaf := func(src, part string) (string, error) {
		return dl.renderString(src, env, el.Pos, s.Path, what+part)
	}
	body, _ := el.Body.(map[string]any)
	switch el.Kind {
	case "template":
		return leaf(el.Text, "")
	case "heading":
		t, err := leaf(el.Text, "")
		return padBlock(styledText(strings.TrimSpace(t))), err
	case "code":
		// trailing line feeds only: a CR stays (conformance view-code-cr)
		t, err := leaf(el.Text, "")
		return strings.TrimRight(t, "\n"), err
	case "prose":
		t, err := leaf(el.Text, "")
		return textwrap.WordWrap(proseText(t), layoutWidth), err
	case "list":
		return r.renderList(el, body, what, dl, s, env)
	case "kv":
		return r.renderKV(el, body, leaf)
	case "banner":
		return r.renderBanner(body, leaf)
	case "choice":
		return r.renderChoice(el, body, what, s, env, leaf)
	case "media":
		return renderMedia(body), nil
	}
	return "", &Error{Pos: el.Pos, State: s.Path, What: what, Msg: fmt.Sprintf("unknown element kind %q (expected one of prose / heading / list / kv / code / template / banner / choice / media)", el.Kind)}
}

// str reads a string field of a body ("" when absent; scalars as written).
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

// listLabelCap is the widest marker and label a list aligns hints past.
const listLabelCap = 38

// renderList prints one "<marker> item" line per item (marker "•" unless
// set), hints aligned two cells after the longest label.
func (r *Renderer) renderList(el *story.ViewElement, body map[string]any, what string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	marker := cmp.Or(str(body, "marker"), "•")
	items, _ := body["items"].([]any)
	var rows []labelRow
	for j, it := range items {
		part := fmt.Sprintf("%s.items[%d]", what, j)
		var label, hint string
		switch x := it.(type) {
		case string:
			label = x
		case map[string]any:
			if hide, err := r.hidden(str(x, "when"), el, s, part, "item", env); err != nil {
				return "", err
			} else if hide {
				continue
			}
			label, hint = str(x, "label"), str(x, "hint")
		case nil:
			continue
		default:
			label = fmt.Sprint(x)
		}
		var err error
		if label, err = dl.renderString(label, env, el.Pos, s.Path, part+".label"); err != nil {
			return "", err
		}
		if hint, err = dl.renderString(hint, env, el.Pos, s.Path, part+".hint"); err != nil {
			return "", err
		}
		rows = append(rows, labelRow{strings.TrimRight(label, " \t"), strings.TrimSpace(hint)})
	}
	// The hint column is two past the longest marker and label in runes, capped
	// at listLabelCap + 2 (conformance view-list-hint-cap); hints wrap at the
	// column. Without hints, labels wrap and indent under their first line.
	prefix := marker + " "
	indent := utf8.RuneCountInString(prefix) // runes, not cells, as upstream's
	col := min(indent+max(labelWidth(rows), 1), listLabelCap) + 2
	hinted := slices.ContainsFunc(rows, func(rw labelRow) bool { return rw.hint != "" })
	var b strings.Builder
	for i, rw := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(prefix)
		if !hinted {
			// word-wrapped to the rest of the width (conformance view-list-wrap)
			label := textwrap.WordWrap(rw.label, layoutWidth-indent) // no wrap at width <= 0
			b.WriteString(strings.ReplaceAll(label, "\n", "\n"+strings.Repeat(" ", indent)))
			continue
		}
		b.WriteString(rw.label)
		if rw.hint != "" {
			b.WriteString(strings.Repeat(" ", max(col-2-indent-utf8.RuneCountInString(rw.label), 0)+2))
			hint := textwrap.WordWrap(rw.hint, layoutWidth-col) // no wrap at width <= 0
			b.WriteString(strings.ReplaceAll(hint, "\n", "\n"+strings.Repeat(" ", col)))
		}
	}
	return b.String(), nil
}

// renderKV aligns values two past the longest "key:" in runes (conformance
// view-kv-key-runes), word-wrapping each to the remaining width.
func (r *Renderer) renderKV(el *story.ViewElement, body map[string]any, leaf leafRenderer) (string, error) {
	pairs, _ := body["pairs"].(map[string]any)
	keys := kvKeys(el, pairs)
	col := 0
	for _, k := range keys {
		col = max(col, utf8.RuneCountInString(k)+1)
	}
	col += 2
	var b strings.Builder
	for i, k := range keys {
		val, err := leaf(str(pairs, k), ".pairs."+k)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k + ":")
		b.WriteString(strings.Repeat(" ", col-utf8.RuneCountInString(k)-1))
		val = textwrap.WordWrap(val, layoutWidth-col) // no wrap at width <= 0
		// a value's lines lose trailing spaces, as upstream's, but for
		// those inside an escape sequence the line ends in (conformance
		// view-kv-escape-space)
		lines := strings.Split(val, "\n")
		for j, l := range lines {
			if !textwrap.EndsInEscape(l) {
				lines[j] = strings.TrimRightFunc(l, unicode.IsSpace)
			}
		}
		b.WriteString(strings.Join(lines, "\n"+strings.Repeat(" ", col)))
	}
	return b.String(), nil
}

// renderBanner prints a ═ rule, "  TEXT  ·  subtitle" and the rule again
// (nothing when TEXT is blank).
func (r *Renderer) renderBanner(body map[string]any, leaf leafRenderer) (string, error) {
	text, err := leaf(str(body, "text"), ".text")
	if err != nil {
		return "", err
	}
	sub, err := leaf(str(body, "subtitle"), ".subtitle")
	if err != nil {
		return "", err
	}
	text, sub = strings.TrimSpace(text), strings.TrimSpace(sub)
	if text == "" {
		// a blank text leaves out the whole banner (conformance view-banner-empty)
		return "", nil
	}
	line := "  " + text
	if sub != "" {
		line += "  ·  " + sub
	}
	// the rule is the line's runes + 2, between 40 and the layout width
	rule := strings.Repeat("═", min(max(utf8.RuneCountInString(line)+2, 40), layoutWidth))
	line = padBlock(styledText(line))
	return rule + "\n" + line + "\n" + rule, nil
}

// renderMedia prints a media element's icon and caption, an arrow and its
// path, as written (conformance view-media-verbatim).
func renderMedia(body map[string]any) string {
	handle := str(body, "handle")
	return mediaIcon(str(body, "kind")) + "  " + cmp.Or(str(body, "caption"), handle) + "\n   → " + cmp.Or(str(body, "path"), handle)
}

// mediaIcon is upstream's pointer icon of a media kind.
func mediaIcon(kind string) string {
	if icon, ok := mediaIcons[strings.ToLower(strings.TrimSpace(kind))]; ok {
		return icon
	}
	return "📎"
}

var mediaIcons = map[string]string{"video": "📹", "image": "🖼", "pdf": "📄", "html": "🌐", "slideshow": "📊"}

// labelRow is one row of a list or choice laid out as label and hint.
type labelRow struct{ label, hint string }

// labelWidth is the length of the longest label in runes, newlines
// included, as upstream measures it.
func labelWidth(rows []labelRow) int {
	col := 0
	for _, rw := range rows {
		col = max(col, utf8.RuneCountInString(rw.label))
	}
	return col
}

// styledText is a heading or banner line as upstream's styled text writes
// it: each CRLF a bare line break (conformance view-heading-crlf), then
// each tab four spaces.
func styledText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\t", "    ")
}

// padBlock pads each line of a block to its widest, as upstream's heading.
func padBlock(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	w := textWidth(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", w-textWidth(l))
	}
	return strings.Join(lines, "\n")
}
