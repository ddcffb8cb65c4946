package lint

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleGuardType = &Rule{ID: "guard-type", Severity: diag.Warning, LintOnly: true,
	Summary: "a when: guard compares or computes a world key with a value its declared type cannot meet (world.s > 1 on a type: string key, world.n + 'x' on an int, world.ok < 2 on a bool): expr refuses the operation, and both engines fail the turn whenever the key holds its declared type (a key a bind: or a lone {{ }} set: writes may hold another type and is not judged)",
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
		c.guardTypes(t.When, t.WhenPos, fmt.Sprintf("state %q intent %q arm %d when", s.Path, intent, arm), loose)
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.When != "" {
			c.guardTypes(e.When, e.PosOf("when"), site.String()+" when", loose)
		}
	})
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
	switch x := n.(type) {
	case *ast.IntegerNode:
		return fmt.Sprint(x.Value), "int"
	case *ast.FloatNode:
		return fmt.Sprint(x.Value), "float"
	case *ast.StringNode:
		return fmt.Sprintf("%q", x.Value), "string"
	case *ast.BoolNode:
		return fmt.Sprint(x.Value), "bool"
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
