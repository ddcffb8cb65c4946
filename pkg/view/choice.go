package view

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// Key-hint lines printed under a choice, per mode. The single-mode line is
// upstream's, as recorded in its traces; the others follow its pattern.
const (
	hintSingle = "[↑/↓ move • Enter pick • Tab chat • Esc cancel]"
	hintMulti  = "[↑/↓ move • Space toggle • Enter confirm • Tab chat • Esc cancel]"
	hintForm   = "[Tab next field • Enter submit • Esc cancel]"
)

// renderChoice prints a choice element as upstream's plain-text view does:
//
//	<prompt>:
//
//	  label  hint
//	  label [placeholder]  hint
//
//	[↑/↓ move • Enter pick • Tab chat • Esc cancel]
//
// Labels are padded two cells past the longest; items whose when: is false
// are omitted; an item with a param: shows its placeholder (or slot) in
// brackets after the label.
func (r *Renderer) renderChoice(el *story.ViewElement, body map[string]any, what string, dl *dirLoader, s *story.State, env expr.Env) (string, error) {
	leaf := func(src, part string) (string, error) {
		return dl.renderLeaf(src, env, el.Pos, s.Path, what+part)
	}
	mode := strings.ToLower(strings.TrimSpace(str(body, "mode")))
	prompt, err := leaf(str(body, "prompt"), ".prompt")
	if err != nil {
		return "", err
	}
	var rows []labelRow
	if mode == "form" {
		rows, err = r.formRows(el, body, what, s, env, leaf)
	} else {
		rows, err = r.itemRows(el, body, what, s, env, leaf, mode == "multi")
	}
	if err != nil {
		return "", err
	}
	return layoutChoice(prompt, rows, mode), nil
}

// leafRenderer renders one string leaf of an element; part names it after
// the element's own place (".prompt", ".items[0].label").
type leafRenderer func(src, part string) (string, error)

// formRows are the rows of a form choice: one "<label>:" per field in
// declaration order, its placeholder in brackets as the hint; a field
// whose when: is false (or fails, with a warning) is omitted.
func (r *Renderer) formRows(el *story.ViewElement, body map[string]any, what string, s *story.State, env expr.Env, leaf leafRenderer) ([]labelRow, error) {
	var rows []labelRow
	fields, _ := body["fields"].(map[string]any)
	for _, name := range r.order.keys(el, []string{"choice", "fields"}, fields) {
		f, _ := fields[name].(map[string]any)
		if w := str(f, "when"); w != "" {
			ok, gerr := r.guard(w, env)
			if gerr != nil || !ok {
				if gerr != nil {
					r.warnf(&Error{Pos: el.Pos, State: s.Path, What: what + ".fields." + name, Msg: fmt.Sprintf("when %q: %v; the field is omitted", w, gerr), Err: gerr})
				}
				continue
			}
		}
		label := str(f, "label")
		if label == "" {
			label = name
		}
		label, err := leaf(label, ".fields."+name+".label")
		if err != nil {
			return nil, err
		}
		ph, err := leaf(str(f, "placeholder"), ".fields."+name+".placeholder")
		if err != nil {
			return nil, err
		}
		hint := ""
		if ph != "" {
			hint = "[" + ph + "]"
		}
		rows = append(rows, labelRow{label + ":", hint})
	}
	return rows, nil
}

// itemRows are the rows of a single or multi choice: one per item (label,
// else its intent; a param: placeholder in brackets; "[ ] " before each
// label in multi mode); an item whose when: is false (or fails, with a
// warning) is omitted.
func (r *Renderer) itemRows(el *story.ViewElement, body map[string]any, what string, s *story.State, env expr.Env, leaf leafRenderer, multi bool) ([]labelRow, error) {
	var rows []labelRow
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		part := fmt.Sprintf(".items[%d]", j)
		if w := str(m, "when"); w != "" {
			ok, gerr := r.guard(w, env)
			if gerr != nil {
				r.warnf(&Error{Pos: el.Pos, State: s.Path, What: what + part, Msg: fmt.Sprintf("when %q: %v; the item is omitted", w, gerr), Err: gerr})
				continue
			}
			if !ok {
				continue
			}
		}
		label := str(m, "label")
		if label == "" {
			label = str(m, "intent")
		}
		label, err := leaf(label, part+".label")
		if err != nil {
			return nil, err
		}
		hint, err := leaf(str(m, "hint"), part+".hint")
		if err != nil {
			return nil, err
		}
		if p, ok := m["param"].(map[string]any); ok {
			ph := str(p, "placeholder")
			if ph == "" {
				ph = str(p, "label")
			}
			if ph == "" {
				ph = str(p, "slot")
			}
			if ph, err = leaf(ph, part+".param.placeholder"); err != nil {
				return nil, err
			}
			if ph != "" {
				label += " [" + ph + "]"
			}
		}
		if multi {
			label = "[ ] " + label
		}
		rows = append(rows, labelRow{label, hint})
	}
	return rows, nil
}

// layoutChoice lays out a choice: the prompt (a colon added unless it ends
// in punctuation) and a blank line, the rows with hints aligned two cells
// past the longest label, a blank line, and the mode's key-hint line.
func layoutChoice(prompt string, rows []labelRow, mode string) string {
	col := labelWidth(rows)
	var b strings.Builder
	if prompt = strings.TrimSpace(prompt); prompt != "" {
		b.WriteString(prompt)
		if !strings.ContainsAny(prompt[len(prompt)-1:], ":?!.") {
			b.WriteByte(':')
		}
		b.WriteString("\n\n")
	}
	for _, rw := range rows {
		b.WriteString("  " + rw.label)
		if rw.hint != "" {
			b.WriteString(strings.Repeat(" ", col-textWidth(rw.label)+2))
			b.WriteString(rw.hint)
		}
		b.WriteByte('\n')
	}
	if len(rows) > 0 {
		b.WriteByte('\n')
	}
	switch mode {
	case "multi":
		b.WriteString(hintMulti)
	case "form":
		b.WriteString(hintForm)
	default:
		b.WriteString(hintSingle)
	}
	return b.String()
}
