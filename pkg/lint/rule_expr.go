package lint

import (
	"errors"
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleViewRender = &Rule{ID: "view-render", Severity: diag.Warning, LintOnly: true,
	Summary: "a view element upstream loads but cannot render at run time (pongo2 ternary, map literal in when:)",
	Example: "view:\n  - text: \"{{ a ? b : c }}\""}

var ruleExpr = &Rule{ID: "expr", Severity: diag.Error, Summary: "when: guards compile under kitsoki's expr whitelist",
	Example: "- {when: \"sum(world.xs) > 1\", target: end}"}

// checkExprs: every when: guard compiles under kitsoki's expr whitelist
// (reference §6.1); inside phase templates failures are warnings.
func checkExprs(c *checker) {
	c.eachTransition(func(s *story.State, in string, a int, t *story.Transition) {
		if t.When == "" {
			return
		}
		if err := c.compileGuard(t.When); err != nil {
			c.rep.ErrAt(c.errAt(t.WhenPos(), t.When, err), diag.ArcPlace(s.Path, in), ruleExpr, "state %q intent %q transition[%d]: guard when %s: %s", s.Path, in, a, expr.Quote(t.When), err.Error())
		}
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.When == "" {
			return
		}
		if err := c.compileGuard(e.When); err != nil {
			sev := diag.Error
			if site.Template {
				if placeholderErr(e.When, err) {
					return // substituted when the phase is expanded
				}
				sev = diag.Warning
			}
			c.rep.AddAt(c.errAt(e.PosOf("when"), e.When, err), site.Place(), sev, ruleExpr, "%s: effect when %s: %s", site.String(), expr.Quote(e.When), err.Error())
		}
	})
	for _, s := range c.states() {
		c.eachViewElement(s, func(el *story.ViewElement, where elemPlace) {
			// compiled upstream only when rendered; a list item's too
			// (conformance view-when-compile-error)
			check := func(when string, at story.Pos, item string) {
				err := c.compileGuard(when)
				if err == nil {
					return
				}
				msg := err.Error()
				if strings.Contains(msg, "map literal") {
					msg += "; expr has no map literal to compare with: test emptiness with len(...) == 0 or != nil"
				}
				c.rep.WarnAt(c.errAt(at, when, err), diag.StatePlace(s.Path), ruleViewRender, "state %q: %s%s: when %s: %s; upstream loads the story but the view fails to render, and the turn with it, whenever this state is shown", s.Path, where, item, expr.Quote(when), msg)
			}
			if el.When != "" && el.Kind != "choice" { // a choice's: rule_choice.go
				check(el.When, el.WhenPos, "")
			}
			if el.Kind != "list" {
				return
			}
			body, _ := el.Body.(map[string]any)
			items, _ := body["items"].([]any)
			for j, it := range items {
				if m, ok := it.(map[string]any); ok {
					if when, ok := m["when"].(string); ok && when != "" {
						check(when, or(el.StringPos(when), el.Pos), fmt.Sprintf(".items[%d]", j))
					}
				}
			}
		})
	}
	for _, n := range c.st.IntentOrder {
		for _, sn := range c.st.Intents[n].SlotOrder {
			sl := c.st.Intents[n].Slots[sn]
			if sl.Validator == "" {
				continue
			}
			if err := c.compileExpr(sl.Validator); err != nil { // upstream never compiles it
				c.rep.WarnAt(sl.Pos, diag.IntentPlace(n), ruleExpr, "intent %q slot %q: validator %q: %s; upstream loads the story, but the validator can never pass", n, sn, sl.Validator, err.Error())
			}
		}
	}
}

// placeholderErr: inside a phase template, a compile error caused by a
// placeholder expansion substitutes is not a problem.
func placeholderErr(src string, err error) bool {
	m := err.Error()
	if strings.Contains(m, `root "tpl"`) || strings.Contains(m, `root "phase"`) {
		return true
	}
	return story.PhaseParamRe.MatchString(src) || story.PhaseParamRe.MatchString(m) || story.PhaseRefRe.MatchString(src)
}

// errAt moves p, the position of the scalar src, to the token an
// expr/template/pongo2 error points at (Line and Col inside src).
func (c *checker) errAt(p story.Pos, src string, err error) story.Pos {
	var ee *expr.Error
	if !errors.As(err, &ee) || ee.Line <= 0 || ee.Col <= 0 || (ee.Src != "" && ee.Src != src) {
		return p
	}
	return c.src.valuePos(p, src, ee.Line, ee.Col)
}

// eachView visits a state's view and its transitions' views, each with
// the place of its elements (i and kind unset).
func eachView(s *story.State, fn func(v *story.View, at elemPlace)) {
	if s.View != nil {
		fn(s.View, elemPlace{})
	}
	for _, on := range s.On {
		for a, t := range on.Arms {
			if v := t.View(); v != nil {
				fn(v, elemPlace{arc: true, intent: on.Intent, a: a})
			}
		}
	}
}

// eachViewElement visits the elements of a state's view and of its
// transition views.
func (c *checker) eachViewElement(s *story.State, fn func(el *story.ViewElement, where elemPlace)) {
	eachView(s, func(v *story.View, at elemPlace) {
		for i, el := range v.Elements {
			at.i, at.kind = i, el.Kind
			fn(el, at)
		}
		for _, b := range v.BlockOrder {
			for i, el := range v.Blocks[b] {
				at.block, at.inBlock, at.i, at.kind = b, true, i, el.Kind
				fn(el, at)
			}
		}
	})
}

// elemPlace is where a view element sits: item i of a state's view (or
// of its block), or of a transition's view.
type elemPlace struct {
	arc     bool // in the view of transition a of intent
	intent  string
	a       int
	inBlock bool // in blocks.<block>, not the elements list
	block   string
	i       int
	kind    string
}

// String is e.g. `intent "go" transition[0] blocks.main[1] (prose)`: a
// transition named as upstream's load errors name an arm.
func (w elemPlace) String() string {
	prefix := ""
	if w.arc {
		prefix = fmt.Sprintf("intent %q transition[%d] ", w.intent, w.a)
	}
	if w.inBlock {
		return fmt.Sprintf("%sblocks.%s[%d] (%s)", prefix, w.block, w.i, w.kind)
	}
	return fmt.Sprintf("%sview[%d] (%s)", prefix, w.i, w.kind)
}
