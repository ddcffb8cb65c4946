package lint

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleGuardType = &Rule{ID: "guard-type", Severity: diag.Warning, LintOnly: true,
	Summary: "a when: guard compares or computes a world key with a value its declared type cannot meet (world.s > 1 on a type: string key, world.n + 'x' on an int, world.ok < 2 on a bool), or a guard or a set:/slots: value template's {{ if }} is a lone string, int or float world key (when: world.s, {{ if world.n }}): expr refuses the operation or the condition, and both engines fail the turn whenever the key holds its declared type (a key a bind: or a lone {{ }} set: writes may hold another type and is not judged)",
	Example: "world: {s: {type: string, default: \"\"}}\n# ... when: \"world.s > 1\""}

// checkGuardTypes warns at an operator of a guard whose two sides have
// kinds expr cannot combine, one side a world key's declared type and the
// other a literal or another declared key (conformance
// storymut-helper-guard-values: "world.s > 1" fails "invalid operation:
// string > int"). A side whose kind is not known is never judged.
func checkGuardTypes(c *checker) {
	if len(c.st.World) == 0 {
		return
	}
	loose := looseKeys(c)
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		where := fmt.Sprintf("state %q intent %q arm %d when", s.Path, intent, arm)
		c.guardTypes(t.When, t.WhenPos(), where, loose)
		c.condType(t.When, t.WhenPos(), t.When, where, loose)
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.When != "" {
			c.guardTypes(e.When, e.PosOf("when"), site.String()+" when", loose)
			c.condType(e.When, e.PosOf("when"), e.When, site.String()+" when", loose)
		}
		if site.Template {
			return
		}
		conds := func(p story.Pos, what, key string, v any) {
			worldTemplates(v, key, func(_, src string, t *expr.Template) {
				for _, cond := range t.Conds() {
					c.condType(src, p, cond.Source(), site.String()+": "+what+" "+key+" {{ if }}", loose)
				}
			})
		}
		for _, kv := range e.Set {
			conds(kv.Pos, "set", kv.Key, kv.Value)
		}
		for _, kv := range e.Slots() {
			conds(kv.Pos, "slots", kv.Key, kv.Value)
		}
	})
}

// condType warns at a condition (a guard, or a value template's {{ if }},
// cond within src at p) that is one world key whose declared type is a
// string or a number: expr takes only a bool or nil there ("invalid
// operation: bool(string)"), so both engines fail the turn whenever it is
// evaluated while the key holds its declared type (conformance
// tmpl-if-cond-bool).
func (c *checker) condType(src string, p story.Pos, cond, where string, loose map[string]bool) {
	if !strings.Contains(cond, "world") {
		return
	}
	tree, err := parser.Parse(cond)
	if err != nil {
		return
	}
	key, kind := c.operandKind(tree.Node, loose)
	if kind != "string" && kind != "int" && kind != "float" {
		return
	}
	line, col := 1, 1
	if off := strings.Index(src, cond); off >= 0 {
		line, col = lineCol(src, off)
	}
	c.rep.Warnf(c.src.valuePos(p, src, line, col), ruleGuardType,
		"%s %q: the condition %s is %s (the key's declared type), not a bool: expr refuses it (invalid operation: bool(%s)), so both engines fail the turn whenever it is evaluated while the key holds its declared type; compare it (%s), or declare the key bool",
		where, src, key, map[string]string{"string": "a string", "int": "an int", "float": "a float"}[kind], kind, condFix(key, kind))
}

// condFix is a comparison that makes a bool of a key of kind.
func condFix(key, kind string) string {
	if kind == "string" {
		return key + ` != ""`
	}
	return key + " != 0"
}

// looseKeys are the world keys a write may give a value of another type
// than declared: a bind: (a host's answer: a type: string key bound from
// JSON holds a number, conformance host-run-json-floats) or a lone {{ }}
// set: (the expression's value, whatever its type).
func looseKeys(c *checker) map[string]bool {
	loose := map[string]bool{}
	c.eachEffect(func(e *story.Effect, _ effSite) {
		for _, kv := range e.Bind() {
			loose[kv.Key] = true
		}
		for _, kv := range e.Set {
			if s, ok := kv.Value.(string); ok && strings.Contains(s, "{{") {
				loose[kv.Key] = true
			}
		}
	})
	return loose
}

func (c *checker) guardTypes(src string, p story.Pos, where string, loose map[string]bool) {
	if !strings.Contains(src, "world") {
		return
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return
	}
	ast.Find(tree.Node, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return false
		}
		l, lk := c.operandKind(b.Left, loose)
		r, rk := c.operandKind(b.Right, loose)
		if lk == "" || rk == "" || combines(b.Operator, lk, rk) {
			return false
		}
		line, col := lineCol(src, min(b.Location().From, len(src)))
		c.rep.Warnf(c.src.valuePos(p, src, line, col), ruleGuardType,
			"%s %q: %s %s %s is %s %s %s: expr refuses it (invalid operation), so both engines fail the turn whenever the key holds its declared type; compare with a value of the key's type, or declare the key with the type it holds",
			where, src, l, b.Operator, r, lk, b.Operator, rk)
		return false
	})
}

// operandKind is an operand's text and kind: a literal's, or a world key's
// declared type ("" when not known, or when a write may change it).
func (c *checker) operandKind(n ast.Node, loose map[string]bool) (string, string) {
	if text, kind := literalKind(n); kind != "" {
		return text, kind
	}
	switch x := n.(type) {
	case *ast.MemberNode:
		id, ok := x.Node.(*ast.IdentifierNode)
		key, kok := x.Property.(*ast.StringNode)
		if !ok || !kok || id.Value != "world" || x.Optional || loose[key.Value] {
			return "", ""
		}
		v := c.st.Var(key.Value)
		if v == nil || v.Default == nil && v.HasDefault {
			return "", ""
		}
		kind := v.Kind()
		if kind == "object" || kind == "list" {
			kind = ""
		}
		return "world." + key.Value, kind
	}
	return "", ""
}

// combines reports whether expr combines the two kinds with op (true for
// an operator not judged here).
func combines(op, l, r string) bool {
	num := func(k string) bool { return k == "int" || k == "float" }
	switch op {
	case "<", ">", "<=", ">=":
		return (num(l) && num(r)) || (l == "string" && r == "string")
	case "-", "*", "/", "%", "**", "^":
		return num(l) && num(r)
	case "+":
		return (num(l) && num(r)) || (l == "string" && r == "string")
	}
	return true
}
