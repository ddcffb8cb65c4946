package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleExprType = &Rule{ID: "expr-type", Severity: diag.Warning, LintOnly: true,
	Summary: "a when: guard or a set:/with:/slots:/emit_intent value template applies a built-in or an operator to a world key whose declared type (or, for a key nothing writes, its default) it refuses (keys(world.s) on a string, len(world.n) on an int, upper(world.n), abs(world.s), world.s.x, {{ world.s + 1 }}): both engines fail the turn whenever it is evaluated while the key holds that type, and the existing engine stops its whole test flows run (a key a bind: or a lone {{ }} set: writes is not judged)",
	Example: "world: {s: {type: string, default: \"\"}}\n# ... set: {names: \"{{ keys(world.s) }}\"}"}

// refusal is what expr refuses: the kinds a built-in's first argument (or
// an operator's operand) cannot be, and what it takes instead. Probed with
// expr-lang v1.17.8 on every kind (probed): each refused kind fails to
// evaluate, whatever the value.
type refusal struct {
	refused []string
	takes   string
}

var scalarsAndList = []string{"string", "int", "float", "bool", "list"}

var builtinRefusals = map[string]refusal{
	"keys":      {scalarsAndList, "a map"},
	"len":       {[]string{"int", "float", "bool"}, "a string, a list or a map"},
	"upper":     {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"lower":     {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"trim":      {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"split":     {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"hasPrefix": {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"hasSuffix": {[]string{"int", "float", "bool", "list", "object"}, "a string"},
	"join":      {[]string{"string", "int", "float", "bool", "object"}, "a list of strings"},
	"abs":       {[]string{"string", "bool", "list", "object"}, "a number"},
	"round":     {[]string{"string", "bool", "list", "object"}, "a number"},
	"int":       {[]string{"bool", "list", "object"}, "a number or a numeric string"},
	"float":     {[]string{"bool", "list", "object"}, "a number or a numeric string"},
}

var (
	fieldRefusal = refusal{scalarsAndList, "a map"}
	indexRefusal = refusal{[]string{"int", "float", "bool", "object"}, "a list or a string"}
	negRefusal   = refusal{[]string{"string", "bool", "list", "object"}, "a number"}
	notRefusal   = refusal{[]string{"string", "int", "float", "list", "object"}, "a bool"}
	inRefusal    = refusal{[]string{"string", "int", "float", "bool"}, "a list or a map"}
	matchRefusal = refusal{[]string{"int", "float", "bool", "list", "object"}, "a string"}
)

// checkExprTypes warns at a built-in or an operator a guard or a value
// template applies to a world key of a kind it refuses (probed on
// both engines: keys(world.s) on a string fails "cannot get keys from
// string" in every place a turn evaluates it). Binary operators in guards are guard-type's.
func checkExprTypes(c *checker) {
	kinds := certainKinds(c)
	if len(kinds) == 0 {
		return
	}
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		c.exprTypes(t.When, t.When, t.WhenPos(), fmt.Sprintf("state %q intent %q arm %d when", s.Path, intent, arm), kinds, false)
	})
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template {
			return
		}
		if e.When != "" && e.EmitIntent() == "" { // an emit_intent entry's error skips it (conformance emit-entry-when-error)
			c.exprTypes(e.When, e.When, e.PosOf("when"), site.String()+" when", kinds, false)
		}
		tmpl := func(p story.Pos, what string, v any) {
			worldTemplates(v, what, func(path, src string, t *expr.Template) {
				for _, prog := range t.Exprs() {
					c.exprTypes(src, prog.Source(), p, site.String()+": "+path, kinds, true)
				}
			})
		}
		for _, kv := range e.Set {
			tmpl(kv.Pos, "set "+kv.Key, kv.Value)
		}
		for _, kv := range e.Slots() {
			tmpl(kv.Pos, "slots "+kv.Key, kv.Value)
		}
		for _, k := range sortedMapKeys(e.With) {
			tmpl(e.WithPos(k), "with "+k, e.With[k])
		}
		if em := e.EmitIntent(); em != "" {
			tmpl(e.PosOf("emit_intent"), "emit_intent", em)
		}
	})
}

// worldTemplates calls fn with each string leaf of v (at path) that is a
// {{ }} template reading world and compiles.
func worldTemplates(v any, path string, fn func(path, src string, t *expr.Template)) {
	walkStrings(v, path, func(at, src string) {
		if !strings.Contains(src, "{{") || !strings.Contains(src, "world") {
			return
		}
		if t, err := expr.CompileTemplate(src); err == nil {
			fn(at, src, t)
		}
	})
}

// certainKinds maps each world key to the kind it certainly holds: its
// declared type, or the kind of its default when it has no type and
// nothing writes it (kept as "default:KIND"); none for a key a bind: or a
// lone {{ }} set: writes (looseKeys).
func certainKinds(c *checker) map[string]string {
	loose := looseKeys(c)
	written := map[string]bool{}
	c.eachEffect(func(e *story.Effect, _ effSite) {
		for _, kv := range slices.Concat(e.Set, e.Increment()) {
			written[kv.Key] = true
		}
	})
	out := map[string]string{}
	for _, v := range c.st.World {
		if v == nil {
			continue
		}
		name := v.Name
		if loose[name] || v.Default == nil && v.HasDefault {
			continue
		}
		kind := v.Kind()
		if kind == "" && v.Type == "" && v.HasDefault && !written[name] && valueKind(v.Default) != "" {
			kind = "default:" + valueKind(v.Default)
		}
		if kind != "" {
			out[name] = kind
		}
	}
	return out
}

// valueKind is the kind of a decoded YAML value ("" for nil or other).
func valueKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int, int64, uint64:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return ""
}

// exprTypes parses one expression (code, inside src at p) and warns at
// each refused operation on a world key of a certain kind; binary
// operators only in a value template (tmpl).
func (c *checker) exprTypes(src, code string, p story.Pos, where string, kinds map[string]string, tmpl bool) {
	if !strings.Contains(code, "world") {
		return
	}
	tree, err := parser.Parse(code)
	if err != nil {
		return
	}
	base := max(strings.Index(src, code), 0)
	ast.Find(tree.Node, func(n ast.Node) bool {
		what, ok := refusedOp(n, kinds, tmpl)
		if !ok {
			return false
		}
		line, col := lineCol(src, min(base+n.Location().From, len(src)))
		c.rep.Warnf(c.src.valuePos(p, src, line, col), ruleExprType,
			"%s %q: %s: expr refuses it, so it fails to evaluate whenever it is reached while the key holds that (in a user turn's arm or effects the turn fails on both engines, and the existing engine stops its whole test flows run; a job's on_complete, a timeout's landing or a parallel region's entry drops the step); check or convert the value first (type(), string(), int()), or declare the key with the type it holds",
			where, src, what)
		return false
	})
}

var kindNoun = map[string]string{"string": "a string", "int": "an int", "float": "a float", "bool": "a bool", "list": "a list", "object": "a map"}

// refusedOp describes an operation n applies to a world key whose
// certain kind it refuses ("keys() of world.s, a string (its declared
// type), which takes a map"; "world.s + 1 is string + int").
func refusedOp(n ast.Node, kinds map[string]string, tmpl bool) (string, bool) {
	judge := func(op string, arg ast.Node, rf refusal) (string, bool) {
		key, kind := worldKeyKind(arg, kinds)
		bare, from := kindFrom(kind)
		if bare == "" || !slices.Contains(rf.refused, bare) {
			return "", false
		}
		return fmt.Sprintf("%s world.%s, %s (%s), which takes %s", op, key, kindNoun[bare], from, rf.takes), true
	}
	switch x := n.(type) {
	case *ast.BuiltinNode:
		if rf, known := builtinRefusals[x.Name]; known && len(x.Arguments) > 0 {
			return judge(x.Name+"() of", x.Arguments[0], rf)
		}
	case *ast.MemberNode:
		if x.Optional {
			return "", false
		}
		switch p := x.Property.(type) {
		case *ast.StringNode:
			return judge("the field ."+p.Value+" of", x.Node, fieldRefusal)
		case *ast.IntegerNode:
			return judge("an index of", x.Node, indexRefusal)
		}
	case *ast.UnaryNode:
		switch x.Operator {
		case "-":
			return judge("unary - on", x.Node, negRefusal)
		case "!", "not":
			return judge(x.Operator+" on", x.Node, notRefusal)
		}
	case *ast.BinaryNode:
		switch x.Operator {
		case "in", "not in":
			return judge(x.Operator, x.Right, inRefusal)
		case "matches":
			return judge("matches on", x.Left, matchRefusal)
		case "contains", "startsWith", "endsWith":
			if what, ok := judge(x.Operator+" on", x.Left, matchRefusal); ok {
				return what, true
			}
			return judge(x.Operator+" of", x.Right, matchRefusal)
		}
		if tmpl {
			return binaryRefused(x, kinds)
		}
	}
	return "", false
}

// kindFrom splits a certain kind into the kind and where it comes from.
func kindFrom(kind string) (string, string) {
	if k, ok := strings.CutPrefix(kind, "default:"); ok {
		return k, "its default; nothing writes it"
	}
	return kind, "its declared type"
}

// binaryRefused is guard-type's operand rule (combines) for an operator in
// a value template, where guard-type does not look: one side a certain
// world key, the other a literal or another.
func binaryRefused(x *ast.BinaryNode, kinds map[string]string) (string, bool) {
	l, lk := operandKindOf(x.Left, kinds)
	r, rk := operandKindOf(x.Right, kinds)
	if lk == "" || rk == "" || combines(x.Operator, lk, rk) || !strings.HasPrefix(l, "world.") && !strings.HasPrefix(r, "world.") {
		return "", false
	}
	return fmt.Sprintf("%s %s %s is %s %s %s", l, x.Operator, r, lk, x.Operator, rk), true
}

// operandKindOf is a literal's or a certain world key's text and kind.
func operandKindOf(n ast.Node, kinds map[string]string) (string, string) {
	if text, kind := literalKind(n); kind != "" {
		return text, kind
	}
	k, kind := worldKeyKind(n, kinds)
	if kind, _ = kindFrom(kind); kind == "int" || kind == "float" || kind == "string" || kind == "bool" {
		return "world." + k, kind
	}
	return "", ""
}

// literalKind is a scalar literal's text and kind ("" for any other node).
func literalKind(n ast.Node) (string, string) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		return fmt.Sprint(x.Value), "int"
	case *ast.FloatNode:
		return fmt.Sprint(x.Value), "float"
	case *ast.StringNode:
		return fmt.Sprintf("%q", x.Value), "string"
	case *ast.BoolNode:
		return fmt.Sprint(x.Value), "bool"
	}
	return "", ""
}

// worldKeyKind is n's world key and certain kind when n is world.K.
func worldKeyKind(n ast.Node, kinds map[string]string) (string, string) {
	m, ok := n.(*ast.MemberNode)
	if !ok || m.Optional {
		return "", ""
	}
	id, iok := m.Node.(*ast.IdentifierNode)
	prop, pok := m.Property.(*ast.StringNode)
	if !iok || !pok || id.Value != "world" {
		return "", ""
	}
	return prop.Value, kinds[prop.Value]
}
