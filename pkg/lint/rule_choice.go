package lint

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// choiceSchemaJSON is the shape of a choice: element per mode, as the
// existing engine's loader checks it (a JSON Schema there too).
//
//go:embed choice.schema.json
var choiceSchemaJSON []byte

// choiceSchema is choiceSchemaJSON compiled, once; it is never changed.
var choiceSchema = sync.OnceValues(func() (*schema.Schema, error) {
	return schema.CompileBytes("choice.schema.json", choiceSchemaJSON)
})

// formRef is a {name} blank of a form template.
var formRef = &lazyre.Regexp{Expr: `\{([A-Za-z_][A-Za-z0-9_]*)\}`}

// checkChoiceShape: a choice element's shape (mode, the keys each mode
// requires and allows), its when: guards, its templated leaves, and the
// cross-references of §9.6 checkChoice does not make: a pre-bound slot
// value outside the slot's enum values, a param: slot also pre-bound, a
// multi-mode slot and literal values, a form's fields and template blanks.
// Upstream refuses each at load (probed by gen -kind lint, seed 600600).
func (c *checker) checkChoiceShape(s *story.State, el *story.ViewElement, where string, body map[string]any) {
	sch, err := choiceSchema()
	if err != nil {
		c.rep.Errf(el.Pos, story.RuleInternal, "%s: the choice schema does not compile: %v", where, err)
		return
	}
	if verr := sch.Validate(jsonvalue.Normalize(body)); verr != nil {
		c.rep.Errf(el.Pos, story.RuleView, "%s: choice: %s", where, verr.Error())
		return
	}
	guard := func(what string, v any) {
		if src, ok := v.(string); ok && strings.TrimSpace(src) != "" {
			if err := c.compileGuard(src); err != nil {
				c.rep.Errf(el.Pos, story.RuleView, "%s: %s: %s", where, what, err.Error())
			}
		}
	}
	leaf := func(what string, v any) {
		src, ok := v.(string)
		if !ok || !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
			return
		}
		if _, err := expr.NewPongoLoader(c.st.Dir).Compile(src); err != nil {
			c.rep.Errf(el.Pos, story.RuleView, "%s: %s: pongo template syntax error: %s", where, what, err.Error())
		}
	}
	guard("when", body["when"])
	mode, _ := body["mode"].(string)
	intent, _ := body["intent"].(string)
	var decl *story.Intent
	if intent != "" && !story.IsTemplated(intent) {
		decl = c.lookupIntent(s, intent, true)
	}
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, _ := it.(map[string]any)
		guard(fmt.Sprintf("items[%d].when", j), m["when"])
		switch mode {
		case "single":
			c.checkSingleItem(s, el, where, j, m, leaf)
		case "multi":
			if v, ok := m["value"].(string); ok && story.IsTemplated(v) {
				c.rep.Errf(el.Pos, story.RuleView, "%s: items[%d].value: must be a string literal (templated values are not allowed in multi mode)", where, j)
			}
		}
	}
	if mode == "multi" && decl != nil {
		if sl, _ := body["slot"].(string); sl != "" && decl.Slots[sl] == nil {
			c.rep.Errf(el.Pos, story.RuleView, "%s: slot %q is not a declared slot of intent %q", where, sl, intent)
		}
	}
	if mode != "form" {
		return
	}
	fields, _ := body["fields"].(map[string]any)
	for _, n := range sortedMapKeys(fields) {
		f, _ := fields[n].(map[string]any)
		guard("fields."+n+".when", f["when"])
		if src, ok := f["expr"].(string); ok && strings.TrimSpace(src) != "" {
			if err := c.compileExpr(src); err != nil {
				c.rep.Errf(el.Pos, story.RuleView, "%s: fields.%s.expr: %s", where, n, err.Error())
			}
		}
		for _, k := range []string{"placeholder", "default", "min", "max"} {
			leaf("fields."+n+"."+k, f[k])
		}
		if ro, _ := f["readonly"].(bool); !ro && decl != nil && decl.Slots[n] == nil {
			c.rep.Errf(el.Pos, story.RuleView, "%s: fields.%s: not a declared slot of intent %q", where, n, intent)
		}
	}
	tpl, _ := body["template"].(string)
	leaf("template", tpl)
	var refs []string
	for _, m := range formRef.FindAllStringSubmatch(tpl, -1) {
		if fields[m[1]] == nil && !slices.Contains(refs, m[1]) {
			refs = append(refs, m[1])
			c.rep.Errf(el.Pos, story.RuleView, "%s: template references {%s} but no fields.%s is declared", where, m[1], m[1])
		}
	}
}

// checkSingleItem checks a single-mode item's pre-bound slots and param.
func (c *checker) checkSingleItem(s *story.State, el *story.ViewElement, where string, j int, m map[string]any, leaf func(string, any)) {
	in, _ := m["intent"].(string)
	var decl *story.Intent
	if in != "" && !story.IsTemplated(in) {
		decl = c.lookupIntent(s, in, true)
	}
	slots, _ := m["slots"].(map[string]any)
	for _, k := range sortedMapKeys(slots) {
		leaf(fmt.Sprintf("items[%d].slots.%s", j, k), slots[k])
		v, ok := slots[k].(string)
		if !ok || story.IsTemplated(v) || decl == nil || decl.Slots[k] == nil || len(decl.Slots[k].Values) == 0 {
			continue
		}
		if !slices.ContainsFunc(decl.Slots[k].Values, func(x any) bool { return fmt.Sprint(x) == v }) {
			c.rep.Errf(el.Pos, story.RuleView, "%s: items[%d].slots.%s: value %q is not in the slot's enum values", where, j, k, v)
		}
	}
	if param, ok := m["param"].(map[string]any); ok {
		leaf(fmt.Sprintf("items[%d].param.placeholder", j), param["placeholder"])
		if sl, _ := param["slot"].(string); sl != "" && slots[sl] != nil {
			c.rep.Errf(el.Pos, story.RuleView, "%s: items[%d].param.slot: %q is already pre-bound in items[%d].slots — choose one or the other", where, j, sl, j)
		}
	}
}
