package view

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// Key-hint lines printed under a choice, per mode (upstream's).
const (
	hintSingle = "[↑/↓ move • Enter pick • Tab chat • Esc cancel]"
	hintMulti  = "[↑/↓ • Space toggle • Enter submit • Tab chat • Esc cancel]"
	hintForm   = "[Tab/↑↓ field • Enter submit • Esc cancel]"
)

// formEmpty is what a form with an empty template shows (upstream's words).
const formEmpty = "(no fields visible)"

// renderChoice prints a choice element as upstream's plain-text view does:
//
//	<prompt>:
//
//	  label [placeholder]  hint
//
//	[↑/↓ move • Enter pick • Tab chat • Esc cancel]
//
// A multi choice prefixes its rows with "[ ] "; a form prints its filled
// template (formText), else formEmpty.
func (r *Renderer) renderChoice(el *story.ViewElement, body map[string]any, what string, s *story.State, env expr.Env, leaf leafRenderer) (string, error) {
	mode := strings.ToLower(strings.TrimSpace(str(body, "mode")))
	prompt, err := leaf(str(body, "prompt"), ".prompt")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	prompt = strings.TrimSpace(prompt)
	if mode == "form" {
		writeChoiceHeader(&b, prompt, "")
		text, err := r.formText(el, body, what, s, env, leaf)
		if err != nil {
			return "", err
		}
		if text = strings.TrimRight(text, "\n"); text == "" {
			text = formEmpty
		}
		for _, line := range strings.Split(text, "\n") {
			b.WriteString("  " + line + "\n")
		}
		b.WriteByte('\n')
		b.WriteString(hintForm)
		return b.String(), nil
	}
	rows, err := r.itemRows(el, body, what, s, env, leaf, mode == "multi")
	if err != nil {
		return "", err
	}
	bounds := ""
	if mode == "multi" {
		bounds = multiBounds(body, len(rows))
	}
	writeChoiceHeader(&b, prompt, bounds)
	col := labelWidth(rows)
	for _, rw := range rows {
		b.WriteString("  " + rw.label)
		if rw.hint != "" {
			b.WriteString(strings.Repeat(" ", col-utf8.RuneCountInString(rw.label)+2))
			b.WriteString(rw.hint)
		}
		b.WriteByte('\n')
	}
	if len(rows) > 0 {
		b.WriteByte('\n')
	}
	if mode == "multi" {
		b.WriteString(hintMulti)
	} else {
		b.WriteString(hintSingle)
	}
	return b.String(), nil
}

// writeChoiceHeader writes the trimmed prompt, a multi choice's bounds, then
// ":" and a blank line; bounds alone have no colon, nor has a prompt that
// already ends with one (conformance view-choice-prompt-colon).
func writeChoiceHeader(b *strings.Builder, prompt, bounds string) {
	colon := ":"
	if strings.HasSuffix(prompt, ":") {
		colon = ""
	}
	switch {
	case prompt != "" && bounds != "":
		b.WriteString(prompt + " " + bounds + colon + "\n\n")
	case prompt != "":
		b.WriteString(prompt + colon + "\n\n")
	case bounds != "":
		b.WriteString(bounds + "\n\n")
	}
}

// multiBounds is a multi choice's "(min–max)" when min: or max: is set and
// an item is shown (conformance view-multi-bounds).
func multiBounds(body map[string]any, shown int) string {
	lo, hi := wholeNumber(body["min"]), wholeNumber(body["max"])
	if shown == 0 || lo <= 0 && hi <= 0 {
		return ""
	}
	if hi <= 0 {
		hi = shown
	}
	if lo == hi {
		return fmt.Sprintf("(%d)", lo)
	}
	return fmt.Sprintf("(%d–%d)", lo, hi)
}

// wholeNumber is a YAML number as an int (0 for anything else).
func wholeNumber(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}

// leafRenderer renders one string leaf of an element, part naming it.
type leafRenderer func(src, part string) (string, error)

// formBlank is the width a form field's blank is padded to (formField).
const formBlank = 10

// formRef is a field reference in a form's template: {name}, an ASCII
// identifier; any other brace is text.
var formRef = &lazyre.Regexp{Expr: `\{([A-Za-z_][A-Za-z0-9_]*)\}`}

// formText is a form's template with every {name} filled in as upstream's
// static form shows it ("_" + formField's text + padding + "_"), then
// rendered once (conformance form-fill-then-render). A hidden field or an
// undeclared {name} is a bare blank.
func (r *Renderer) formText(el *story.ViewElement, body map[string]any, what string, s *story.State, env expr.Env, leaf leafRenderer) (string, error) {
	tpl := str(body, "template")
	fields, _ := body["fields"].(map[string]any)
	var b strings.Builder
	last := 0
	for _, loc := range formRef.Get().FindAllStringSubmatchIndex(tpl, -1) {
		name := tpl[loc[2]:loc[3]]
		b.WriteString(tpl[last:loc[0]])
		last = loc[1]
		text, pad := "", formBlank
		if f, ok := fields[name].(map[string]any); ok {
			hide, err := r.hidden(str(f, "when"), el, s, what+".fields."+name, "field", env)
			if err != nil {
				return "", err
			}
			if !hide {
				text, pad = r.formField(f, name, env)
			}
		}
		b.WriteString("_" + text + strings.Repeat("_", pad) + "_")
	}
	b.WriteString(tpl[last:])
	return leaf(b.String(), ".template")
}

// formField is the text a form field is filled in with and its "_"
// padding, as upstream computes them: a readonly field's expr: value, else
// its default:, placeholder: or name; the padding is formBlank less the
// source's length in runes as written, not as rendered.
func (r *Renderer) formField(f map[string]any, name string, env expr.Env) (string, int) {
	if ex := str(f, "expr"); ex != "" && f["readonly"] == true {
		if v, err := r.evalExpr(ex, env); err == nil && v != nil {
			text := strings.TrimSpace(fmt.Sprint(v))
			return text, formPad(text)
		}
	}
	src := strings.TrimSpace(cmp.Or(str(f, "default"), str(f, "placeholder"), name))
	return src, formPad(src)
}

// formPad is the "_" padding a form field whose source text is src gets.
func formPad(src string) int {
	return max(formBlank-utf8.RuneCountInString(src), 0)
}

// itemRows are the rows of a single or multi choice, one per shown item
// (label, else its intent or value; a param: placeholder, else "(slot?)").
func (r *Renderer) itemRows(el *story.ViewElement, body map[string]any, what string, s *story.State, env expr.Env, leaf leafRenderer, multi bool) ([]labelRow, error) {
	var rows []labelRow
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		part := fmt.Sprintf(".items[%d]", j)
		if hide, err := r.hidden(str(m, "when"), el, s, what+part, "item", env); err != nil {
			return nil, err
		} else if hide {
			continue
		}
		value := ""
		if multi {
			value = str(m, "value")
		}
		label, err := leaf(cmp.Or(str(m, "label"), value, str(m, "intent")), part+".label")
		if err != nil {
			return nil, err
		}
		hint, err := leaf(str(m, "hint"), part+".hint")
		if err != nil {
			return nil, err
		}
		label = strings.TrimRight(label, " \t")
		if p, ok := m["param"].(map[string]any); ok {
			ph, err := leaf(str(p, "placeholder"), part+".param.placeholder")
			if err != nil {
				return nil, err
			}
			if ph = strings.TrimSpace(ph); ph != "" {
				label += " [" + ph + "]"
			} else {
				label += " (" + str(p, "slot") + "?)"
			}
		}
		if multi {
			label = "[ ] " + label
		}
		rows = append(rows, labelRow{label, strings.TrimSpace(hint)})
	}
	return rows, nil
}
