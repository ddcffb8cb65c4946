package lint

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// choiceSchemaJSON is the shape of a choice: element per mode, as the
// existing engine's loader checks it.
//
//go:embed choice.schema.json
var choiceSchemaJSON []byte

var choiceSchema = sync.OnceValues(func() (*schema.Schema, error) {
	return schema.CompileBytes("choice.schema.json", choiceSchemaJSON)
})

// formRef is a {name} blank of a form template.
var formRef = &lazyre.Regexp{Expr: `\{([A-Za-z_][A-Za-z0-9_]*)\}`}

// choiceCheck checks one choice element: its findings sit on el, their
// messages start with where.
type choiceCheck struct {
	c     *checker
	s     *story.State
	el    *story.ViewElement
	where string
}

func (ch *choiceCheck) errf(format string, args ...any) {
	ch.c.rep.ErrAt(ch.el.Pos, diag.StatePlace(ch.s.Path), story.RuleView, "%s: "+format, append([]any{ch.where}, args...)...)
}

// checkViews: choice elements name declared intents and slots (reference
// §9.6) and have the shape upstream's loader checks; one choice per view.
func checkViews(c *checker) {
	for _, s := range c.states() {
		story.EachChoice(s, func(el *story.ViewElement, where string, nth int) {
			if nth > 1 {
				c.rep.ErrAt(el.Pos, diag.StatePlace(s.Path), story.RuleView, "%s", story.TooManyChoices(where))
			}
			if body, _ := el.Body.(map[string]any); body != nil {
				ch := &choiceCheck{c: c, s: s, el: el, where: where}
				ch.refs(body)
				ch.shape(body)
			}
			if el.When != "" {
				// the element's own when: is compiled at load, unlike
				// another element's (probed: state and transition views,
				// a region leaf; rule_expr.go's view-render)
				if err := c.compileGuard(el.When); err != nil {
					c.rep.ErrAt(c.errAt(el.WhenPos, el.When, err), diag.StatePlace(s.Path), story.RuleView, "%s: when: the existing engine compiles a choice element's when: as a guard at load and refuses the story: %s", where, err.Error())
				}
			}
		})
	}
}

// refs checks that the intents and slots the element names are declared.
func (ch *choiceCheck) refs(body map[string]any) {
	c, s := ch.c, ch.s
	if in, ok := body["intent"].(string); ok && in != "" && !story.IsTemplated(in) && !c.intentKnown(s, in, true) {
		ch.errf("intent %q not declared in state or global intents", in)
	}
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, _ := it.(map[string]any)
		in, _ := m["intent"].(string)
		decl := ch.intent(in)
		if decl == nil {
			if in != "" && !story.IsTemplated(in) && !c.intentKnown(s, in, true) {
				c.rep.ErrAt(or(ch.el.StringPos(in), ch.el.Pos), diag.StatePlace(s.Path), story.RuleView, "%s: items[%d]: intent %q not declared in state or global intents", ch.where, j, in)
			}
			continue
		}
		slots, _ := m["slots"].(map[string]any)
		for _, k := range sortedMapKeys(slots) {
			if decl.Slots[k] == nil {
				ch.errf("items[%d].slots: key %q is not a declared slot of intent %q", j, k, in)
			}
		}
		param, _ := m["param"].(map[string]any)
		if sl, _ := param["slot"].(string); sl != "" && decl.Slots[sl] == nil {
			ch.errf("items[%d].param.slot: %q is not a declared slot of intent %q", j, sl, in)
		}
	}
}

// shape: a choice element's shape, guards, templated leaves and the
// cross-references refs does not make, each of which upstream refuses at
// load.
func (ch *choiceCheck) shape(body map[string]any) {
	sch, err := choiceSchema()
	if err != nil {
		ch.c.rep.ErrAt(ch.el.Pos, diag.StatePlace(ch.s.Path), story.RuleInternal, "%s: the choice schema does not compile: %v", ch.where, err)
		return
	}
	if verr := sch.Validate(jsonvalue.Normalize(body)); verr != nil {
		ch.errf("choice: %s", verr.Error())
		return
	}
	ch.guard("when", body["when"])
	mode, _ := body["mode"].(string)
	intent, _ := body["intent"].(string)
	decl := ch.intent(body["intent"])
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, _ := it.(map[string]any)
		ch.guard(fmt.Sprintf("items[%d].when", j), m["when"])
		switch mode {
		case "single":
			ch.singleItem(j, m)
		case "multi":
			if v, ok := m["value"].(string); ok && story.IsTemplated(v) {
				ch.errf("items[%d].value: must be a string literal (templated values are not allowed in multi mode)", j)
			}
		}
	}
	switch mode {
	case "multi":
		if sl, _ := body["slot"].(string); sl != "" && decl != nil && decl.Slots[sl] == nil {
			ch.errf("slot %q is not a declared slot of intent %q", sl, intent)
		}
	case "form":
		ch.form(body, intent, decl)
	}
}

// intent is the declaration of the intent v names literally, or nil.
func (ch *choiceCheck) intent(v any) *story.Intent {
	name, _ := v.(string)
	if name == "" || story.IsTemplated(name) {
		return nil
	}
	return ch.c.lookupIntent(ch.s, name, true)
}

func (ch *choiceCheck) guard(what string, v any) {
	if src, ok := v.(string); ok && strings.TrimSpace(src) != "" {
		if err := ch.c.compileGuard(src); err != nil {
			ch.errf("%s: %s", what, err.Error())
		}
	}
}

func (ch *choiceCheck) leaf(what string, v any) {
	src, ok := v.(string)
	if !ok || !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
		return
	}
	if _, err := expr.NewPongoLoader(ch.c.st.Dir).Compile(src); err != nil {
		ch.errf("%s: pongo template syntax error: %s", what, err.Error())
	}
}

func (ch *choiceCheck) singleItem(j int, m map[string]any) {
	decl := ch.intent(m["intent"])
	slots, _ := m["slots"].(map[string]any)
	for _, k := range sortedMapKeys(slots) {
		ch.leaf(fmt.Sprintf("items[%d].slots.%s", j, k), slots[k])
		v, ok := slots[k].(string)
		if !ok || story.IsTemplated(v) || decl == nil || decl.Slots[k] == nil || len(decl.Slots[k].Values) == 0 {
			continue
		}
		if !slices.Contains(valueTexts(decl.Slots[k].Values), v) {
			ch.errf("items[%d].slots.%s: value %q is not in the slot's enum values", j, k, v)
		}
	}
	if param, ok := m["param"].(map[string]any); ok {
		ch.leaf(fmt.Sprintf("items[%d].param.placeholder", j), param["placeholder"])
		if sl, _ := param["slot"].(string); sl != "" && slots[sl] != nil {
			ch.errf("items[%d].param.slot: %q is already pre-bound in items[%d].slots — choose one or the other", j, sl, j)
		}
	}
}

// form checks a form's fields (guards, expressions, templated leaves,
// declared slots) and that each {name} blank of its template is a field.
func (ch *choiceCheck) form(body map[string]any, intent string, decl *story.Intent) {
	fields, _ := body["fields"].(map[string]any)
	for _, n := range sortedMapKeys(fields) {
		f, _ := fields[n].(map[string]any)
		ch.guard("fields."+n+".when", f["when"])
		if src, ok := f["expr"].(string); ok && strings.TrimSpace(src) != "" {
			if err := ch.c.compileExpr(src); err != nil {
				ch.errf("fields.%s.expr: %s", n, err.Error())
			}
		}
		for _, k := range []string{"placeholder", "default", "min", "max"} {
			ch.leaf("fields."+n+"."+k, f[k])
		}
		if ro, _ := f["readonly"].(bool); !ro && decl != nil && decl.Slots[n] == nil {
			ch.errf("fields.%s: not a declared slot of intent %q", n, intent)
		}
	}
	tpl, _ := body["template"].(string)
	ch.leaf("template", tpl)
	var refs []string
	for _, m := range formRef.FindAllStringSubmatch(tpl, -1) {
		if fields[m[1]] == nil && !slices.Contains(refs, m[1]) {
			refs = append(refs, m[1])
			ch.errf("template references {%s} but no fields.%s is declared", m[1], m[1])
		}
	}
}
