package story

import (
	"errors"
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story/expr"
)

// checkExprs: every when: guard (transitions, effects, view elements, list
// items) compiles under kitsoki's expr whitelist (reference §6.1). Inside
// phase templates, where placeholders are not yet substituted, failures are
// warnings.
func checkExprs(c *checker) {
	c.eachTransition(func(s *State, in string, a int, t *Transition) {
		if t.When == "" {
			return
		}
		if err := c.compileGuard(t.When); err != nil {
			c.rep.errf(errAt(t.WhenPos, t.When, err), ruleExpr, "state %q intent %q transition[%d]: guard when %q: %s", s.Path, in, a, t.When, errMsg(err))
		}
	})
	c.eachEffect(func(e *Effect, site effSite) {
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
			c.rep.add(errAt(e.keyPos("when"), e.When, err), sev, ruleExpr, "%s: effect when %q: %s", site.Loc, e.When, errMsg(err))
		}
	})
	for _, s := range c.st.AllStates() {
		c.eachViewElement(s, func(el *ViewElement, where string) {
			if el.When == "" {
				return
			}
			if err := c.compileGuard(el.When); err != nil {
				c.rep.errf(el.Pos, ruleExpr, "state %q: %s: when %q: %s", s.Path, where, el.When, errMsg(err))
			}
		})
	}
	for _, n := range c.st.IntentOrder {
		for _, sn := range c.st.Intents[n].SlotOrder {
			sl := c.st.Intents[n].Slots[sn]
			if sl.Validator == "" {
				continue
			}
			if err := c.compileExpr(sl.Validator); err != nil {
				c.rep.errf(sl.Pos, ruleExpr, "intent %q slot %q: validator %q: %s", n, sn, sl.Validator, errMsg(err))
			}
		}
	}
}

func errMsg(err error) string { return err.Error() }

// placeholderErr: inside a phase template, a compile error caused by a
// {param} placeholder or a {{ tpl.x }} / {{ phase.next.x }} reference is
// not a problem: expansion substitutes them before upstream compiles.
func placeholderErr(src string, err error) bool {
	m := err.Error()
	if strings.Contains(m, `root "tpl"`) || strings.Contains(m, `root "phase"`) {
		return true
	}
	return phaseParamRe.MatchString(src) || phaseParamRe.MatchString(m)
}

// errAt moves p to the column an expr/template error points at, when the
// source is a single-line scalar starting at p.
func errAt(p Pos, src string, err error) Pos {
	var ee *expr.Error
	if !errors.As(err, &ee) || ee.Line != 1 || ee.Col <= 0 || strings.ContainsAny(src, "\n\\") || ee.Src != src {
		return p
	}
	p.Col += ee.Col - 1
	return p
}

// eachViewElement visits the elements of a state's view and of its
// transition views.
func (c *checker) eachViewElement(s *State, fn func(el *ViewElement, where string)) {
	visit := func(v *View, prefix string) {
		if v == nil {
			return
		}
		for i, el := range v.Elements {
			fn(el, fmt.Sprintf("%sview[%d] (%s)", prefix, i, el.Kind))
		}
		for _, b := range v.BlockOrder {
			for i, el := range v.Blocks[b] {
				fn(el, fmt.Sprintf("%sblocks.%s[%d] (%s)", prefix, b, i, el.Kind))
			}
		}
	}
	visit(s.View, "")
	for _, in := range s.OnOrder {
		for a, t := range s.On[in] {
			visit(t.View, fmt.Sprintf("intent %q arc[%d] transition ", in, a))
		}
	}
}
