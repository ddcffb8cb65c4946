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

var ruleSetType = &Rule{ID: "set-type", Severity: diag.Warning, LintOnly: true,
	Summary: "a set: (an effect's, an import's world_in: or exit set:) writes a value the key's declared type does not hold (a text that does not parse as the int, float or bool, or that does on a key declared integer, number or boolean, which a set: never coerces, a number on a bool, string, object or list key, a text on an object or list key, text a template renders where no such text fits: \"n-{{ x }}\", 'n' + x, upper(x) on a bool, any text on an object or list): both engines store it as written, and a guard or template using the key as its type fails the turn",
	Example: "world: {n: {type: int, default: 0}}\n# ... set: {n: \"\"}   then   when: \"world.n > 0\""}

// checkSetTypes warns at a set: value of a kind its declared world type
// cannot hold. Neither engine converts it: the key holds the value as
// written, so the next `world.n > 0`, `world.ok` or `world.o.field` fails
// its turn with "invalid operation" (conformance values-set-coercion-exact;
// a quoted value that parses as the type is strict-mismatch's).
func checkSetTypes(c *checker) {
	for _, a := range c.st.ImportOrder {
		im := c.st.Imports[a]
		if im == nil {
			continue
		}
		if im.Child != nil {
			for _, kv := range im.WorldIn {
				setTypeAt(c, kv, im.Child.Var(kv.Key), fmt.Sprintf("imports.%s.world_in", a), "the child's ")
			}
		}
		for _, name := range sortedMapKeys(im.Exits) {
			if ex := im.Exits[name]; ex != nil {
				for _, kv := range ex.Set {
					setTypeAt(c, kv, c.st.Var(kv.Key), fmt.Sprintf("imports.%s.exits.%s", a, name), "a ")
				}
			}
		}
	}
	if len(c.st.World) == 0 {
		return
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		for _, kv := range e.Set {
			setTypeAt(c, kv, c.st.Var(kv.Key), site.String(), "a ")
		}
	})
}

// setTypeAt warns when kv writes a value v's declared type cannot hold;
// whose is "a " or names the story that declares v ("the child's ").
func setTypeAt(c *checker, kv story.KV, v *story.WorldVar, where, whose string) {
	if v == nil {
		return
	}
	kind := v.Kind()
	if kind == "" {
		return
	}
	what := setValueMismatch(c, kv.Value, kind, v.Type)
	if what == "" {
		return
	}
	a := kindArticle(kind)
	c.rep.Warnf(kv.Pos, ruleSetType, "%s: set %s: %s, not a%s %s, on %stype: %s key: both engines store it as written, so a guard or template that reads it as a%s %s fails the turn (invalid operation). Write a%s %s value, or declare the key with the type it holds",
		where, kv.Key, what, a, kind, whose, v.Type, a, kind, a, kind)
}

func kindArticle(kind string) string {
	if kind == "int" || kind == "object" {
		return "n"
	}
	return ""
}

// setValueMismatch describes a set: value the kind cannot hold, or "" when
// it can (or when what it renders is not known without running it); typ
// is the key's type: as written. null
// is left alone: it is how a story clears a key.
func setValueMismatch(c *checker, val any, kind, typ string) string {
	switch x := val.(type) {
	case nil:
		return ""
	case bool:
		if kind != "bool" {
			return fmt.Sprintf("%v is a bool", x)
		}
	case map[string]any:
		if kind != "object" {
			return "a mapping"
		}
	case []any:
		if kind != "list" {
			return "a list"
		}
	case string:
		return textMismatch(c, x, kind, typ)
	default: // a YAML number
		if kind == "bool" || kind == "string" || kind == "object" || kind == "list" {
			return fmt.Sprintf("%v is a number", x)
		}
	}
	return ""
}

// textMismatch judges a string set: value on a key of kind, declared
// typ: a literal, a template that renders text around its {{ }}, or a
// lone {{ e }} whose e is text.
func textMismatch(c *checker, s, kind, typ string) string {
	if !expr.IsTemplate(s) {
		if kind == "string" {
			return ""
		}
		if _, ok := parsesAs(s, kind); ok {
			if setCoerces(typ) {
				return "" // strict-mismatch's
			}
			return fmt.Sprintf("%q is text (a set: coerces it only on a key declared type: %s, written so)", s, kind)
		}
		return fmt.Sprintf("%q is text", s)
	}
	if kind == "string" {
		return ""
	}
	t, err := c.template(s)
	if err != nil {
		return ""
	}
	if !t.IsTyped() {
		if text, ok := templateText(s); ok && !textCanParse(text, kind) {
			return fmt.Sprintf("%q renders text", s)
		}
		return ""
	}
	src := strings.TrimSpace(s)
	src = strings.TrimSpace(src[2 : len(src)-2])
	tree, err := parser.Parse(src)
	if err != nil || !textNode(tree.Node) {
		return ""
	}
	switch kind {
	case "object", "list":
		return fmt.Sprintf("%q renders text", s)
	}
	// On an int, float or bool key only text that can never spell one is
	// certain: a literal joined with + that no number or bool holds, or
	// upper(x) on a bool ("TRUE" is not true). string(n) + '1' reads back.
	if lit, ok := joinedText(tree.Node); ok && !textCanParse(lit, kind) {
		return fmt.Sprintf("%q renders text", s)
	}
	if b, ok := tree.Node.(*ast.BuiltinNode); ok && b.Name == "upper" && kind == "bool" {
		return fmt.Sprintf("%q renders upper-case text", s)
	}
	return ""
}

// joinedText is the literal text of the string literals an expression
// joins with + (ok is false when it joins none).
func joinedText(n ast.Node) (string, bool) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.BinaryNode:
		if x.Operator != "+" {
			return "", false
		}
		l, lok := joinedText(x.Left)
		r, rok := joinedText(x.Right)
		return l + r, lok || rok
	}
	return "", false
}

// templateText is the literal text of an interpolating template outside
// its {{ }}; ok is false where a {{ if }} or {{ range }} block decides
// which text renders.
func templateText(s string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", false
		}
		f := strings.Fields(s[i+2 : i+j])
		if len(f) > 0 && (f[0] == "if" || f[0] == "range" || f[0] == "else" || f[0] == "elif" || f[0] == "end") {
			return "", false
		}
		s = s[i+j+2:]
	}
}

// textCanParse reports whether text around a template's values could be
// part of something the kind parses (an object or list never takes text).
func textCanParse(text, kind string) bool {
	allowed := ""
	switch kind {
	case "int":
		allowed = "0123456789+-"
	case "float":
		allowed = "0123456789+-.eE_xXpPabcdefABCDEFinftyINFTYNa"
	case "bool":
		allowed = "truefals"
	case "object", "list":
		return false
	default:
		return true
	}
	for _, r := range text {
		if !strings.ContainsRune(allowed, r) {
			return false
		}
	}
	return true
}

// textFuncs are the expr built-ins whose result is always text.
var textFuncs = map[string]bool{"string": true, "upper": true, "lower": true, "trim": true,
	"trimPrefix": true, "trimSuffix": true, "replace": true, "repeat": true, "join": true,
	"toJSON": true, "toBase64": true}

// textNode reports whether an expression's value is text whatever the
// world holds: a string literal, a text built-in, or + with either.
func textNode(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.StringNode:
		return true
	case *ast.BuiltinNode:
		return textFuncs[x.Name]
	case *ast.BinaryNode:
		return x.Operator == "+" && (textNode(x.Left) || textNode(x.Right))
	}
	return false
}
