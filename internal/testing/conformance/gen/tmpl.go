package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"kitsoki/pkg/story/expr"
)

// The second kind of story (`gen write -kind tmpl`): a small story whose
// world holds values of every shape (ints, floats, strings with unicode
// and HTML-ish text, bools, null, lists, nested maps, a list of maps),
// whose views are drawn from pongo2 template constructs and filter chains
// (those the corpus uses first), whose arms carry expr-lang `when:`
// guards, and whose set: effects are `{{ }}` templates producing strings,
// numbers, bools, lists and maps. Each story has two states and a
// handful of intents so a difference is easy to read.

// tgen holds one template story's random choices.
type tgen struct {
	rnd       *rand.Rand
	noInclude bool // drawing the include file itself
	t         textOpts
}

func newTgen(seed uint64, t textOpts) *tgen {
	return &tgen{rnd: rand.New(rand.NewPCG(seed, seed^0x243f6a8885a308d3)), t: t}
}

// qq is kitsoki's `??` with the spacing -coalesce draws.
func (g *tgen) qq() string { return g.t.coalesce(g.pick) }

func (g *tgen) pick(xs ...string) string { return xs[g.rnd.IntN(len(xs))] }
func (g *tgen) chance(pct int) bool      { return g.rnd.IntN(100) < pct }

// The world keys of a tmpl story and the values each may hold.
var tmplShapes = map[string][]any{
	"i": {0, 1, 3, -2, 10, 42},
	"f": {plain("1.5"), plain("2.0"), plain("-0.5"), plain("0.0"), plain("3.25"), plain("0.1")},
	"s": {"", "abc", "héllo wörld", "<b>&amp;", "a b  c", "Zoë", "12", "true", "x,y", "ÅBC déf", "日本 語", "x \ny", "  pad  ", "a-b-c d", "tab\there"},
	"b": {true, false},
	"z": {nil},
	"l": {
		[]any{1, 2, 3}, []any{"a", "b"}, []any{1, "a", true, nil, plain("1.5")}, []any{},
		[]any{"c", "a", "b"}, []any{[]any{1, 2}, "x"},
	},
	"mp": {
		m{"k": 1, "name": "x", "sub": m{"d": []any{1, 2}}},
		m{"k": "", "name": "<i>y</i>"},
		m{},
		m{"k": plain("2.5"), "sub": m{"d": []any{}, "e": nil}},
	},
	"lm": {
		[]any{m{"name": "a", "n": 1}, m{"name": "b", "n": 2}},
		[]any{m{"name": "", "n": 0}},
		[]any{},
		[]any{m{"name": "Ω", "n": plain("1.5"), "tags": []any{"t"}}},
	},
}

// The declared type a key gets when the story types it.
var tmplTypes = map[string]string{
	"i": "int", "f": "float", "s": "string", "b": "bool", "z": "any",
	"l": "list", "mp": "object", "lm": "list",
}

var tmplKeys = []string{"b", "f", "i", "l", "lm", "mp", "s", "z"}

// The keys set: effects write (untyped) and views read back.
var tmplOut = []string{"o1", "o2"}

func (g *tgen) value(k string) any {
	vs := tmplShapes[k]
	if k == "s" && g.t.wide {
		vs = append(append([]any(nil), vs...), wideAny...)
	}
	return vs[g.rnd.IntN(len(vs))]
}

// anyShape is a value of a random shape.
func (g *tgen) anyShape() any { return g.value(tmplKeys[g.rnd.IntN(len(tmplKeys))]) }

// story builds the app.yaml of one tmpl story, and the include file its
// views may name.
func (g *tgen) story(id string) (app m, inc string) {
	world := m{}
	for _, k := range tmplKeys {
		switch {
		case g.chance(20):
			world[k] = g.value(k) // the inline-default form
			if world[k] == nil || isMapShape(world[k]) {
				world[k] = m{"type": "any", "default": world[k]}
			}
		case k == "z" && g.chance(30):
			world[k] = m{"type": g.pick("any", "string")} // no default: absent until set
		case g.chance(30):
			world[k] = m{"type": "any", "default": g.value(k)}
		default:
			world[k] = m{"type": tmplTypes[k], "default": g.value(k)}
		}
	}
	for _, k := range tmplOut {
		world[k] = m{"type": "any", "default": g.pick("", "o")}
	}
	states := m{}
	for _, name := range []string{"s0", "s1"} {
		st := m{"view": g.view()}
		if g.chance(50) {
			st["description"] = g.pick("Room <b>", "  spaced  ", "日本", "")
		}
		other := map[string]string{"s0": "s1", "s1": "s0"}[name]
		on := m{
			"look": []any{m{"target": "."}},
			"go":   []any{m{"target": other, "effects": g.sets(2)}},
			"put":  []any{m{"target": ".", "effects": []any{m{"set": m{g.pick(tmplOut...): g.pick("{{ slots.v }}", "v={{ slots.v }}", "{{ slots.v"+g.qq()+"'none' }}")}}}}},
		}
		var step []any
		for range 1 + g.rnd.IntN(2) {
			step = append(step, m{"when": g.guard(), "target": g.pick(".", other), "effects": g.sets(1)})
		}
		fell := m{"target": ".", "effects": []any{m{"set": m{"o2": "fell"}}}}
		if g.chance(25) {
			fell["view"] = g.view() // a transition view replaces the state's
		}
		step = append(step, fell)
		on["step"] = step
		st["on"] = on
		states[name] = st
	}
	app = m{
		"app":   m{"id": id, "version": "0.1.0"},
		"world": world,
		"intents": m{
			"look": m{"description": "look"},
			"go":   m{"description": "go"},
			"step": m{"description": "step"},
			"put":  m{"description": "put", "slots": m{"v": m{"type": "string"}}},
		},
		"root":   "s0",
		"states": states,
	}
	// the include file includes nothing (a file that includes itself
	// recurses without end upstream; ours refuses it, a known difference)
	g.noInclude = true
	inc = g.pongo(2)
	g.noInclude = false
	return app, inc
}

func isMapShape(v any) bool { _, ok := v.(m); return ok }

// sets is a chain of up to n set: effects whose values are {{ }}
// templates.
func (g *tgen) sets(n int) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		out = append(out, m{"set": m{g.setKey(): g.setValue()}})
	}
	return out
}

func (g *tgen) setKey() string {
	if g.chance(75) {
		return g.pick(tmplOut...)
	}
	return g.pick(tmplKeys...) // a typed key: set coerces to its type
}

// setValue is an effect value: one {{ expr }} (a typed value), a string
// template around one, an if/range block, or a list or map of templates.
func (g *tgen) setValue() any {
	switch g.rnd.IntN(11) {
	case 9:
		// the untyped item root: arithmetic on a range's elements, and
		// item outside a range (nil)
		return g.pick("{{ range world.l }}{{ type(item) }},{{ end }}", "{{ range [1, 2.5, 3] }}{{ item * 2 }},{{ end }}",
			"{{ range world.lm }}{{ item.n + 1 }};{{ end }}", "{{ range world.mp.sub?.d ?? [] }}{{ item - 1 }}{{ end }}",
			"{{ item == nil }}", "{{ len(item) }}", "{{ range world.l }}{{ item ?? 'nil' }}|{{ end }}", "{{ item }}")
	case 10:
		if g.chance(20) {
			// a condition of any type: not a bool is a failure upstream
			return "{{ if " + g.texpr([]int{tAny, tNum, tStr, tList}[g.rnd.IntN(4)], 1) + " }}T{{ else }}F{{ end }}"
		}
		return "{{ if " + g.guard() + " }}A{{ else if " + g.pick("world.z", "world.missing", "world.b", g.guard()) + " }}B{{ end }}"
	case 0:
		return "p{{ " + g.expr(2) + " }}q"
	case 1:
		return "{{ if " + g.guard() + " }}yes{{ else }}no{{ end }}"
	case 2:
		return g.pick("{{ range world.l }}{{ item }},{{ end }}", "{{ range world.lm }}{{ .name }}={{ .n }};{{ end }}",
			"[{{ range world.l }}<{{ item }}>{{ end }}]")
	case 3:
		return []any{"{{ " + g.expr(1) + " }}", "x"}
	case 4:
		return m{"a": "{{ " + g.expr(1) + " }}", "b": "{{ world.s }}"}
	case 5:
		return g.pick("plain", "", "{{ world.missing }}", "{{ world.z }}")
	default:
		return "{{ " + g.expr(2) + " }}"
	}
}

// Expr-lang expressions are drawn by the type they produce, so most of
// a story's expressions evaluate on the values its keys hold (a turn that
// fails to evaluate aborts the existing engine's whole run, leaving
// nothing to compare); one in ten is drawn wild, to reach error paths.
const (
	tNum = iota
	tStr
	tBool
	tList
	tAny
)

var exprLeaves = [][]string{
	tNum: {"world.i", "world.f", "len(world.l)", "len(world.s)", "1", "2", "0", "-1", "2.5", "0.5", "len(world.lm)"},
	tStr: {"world.s", `(world.mp.name ?? "")`, "string(world.i)", "string(world.f)", `"a"`, `""`, `"x"`, `"Zoë"`, "string(world.l)"},
	tBool: {"world.b", "world.z == nil", "world.missing == nil", "true", "false", "world.mp.k == 1", `"k" in world.mp`, "world.mp?.nope?.x == nil", "world.o1 == nil",
		`"z" in world`, `"o1" in world`, `"i" in world`},
	tList: {"world.l", "world.lm", `split(world.s, " ")`, "[1, 2]", `["a", "b"]`, "world.mp.sub?.d ?? []", "[]"},
	tAny:  {"world.z", "world.missing", "world.mp", "world.mp.k", "world.mp.sub", "world.o1", "world.o2", "world.mp?.nope?.x", "nil", "world.l[0]", "get(world.mp, \"k\")"},
}

// texpr is an expression of type t and the given depth.
func (g *tgen) texpr(t, depth int) string {
	if depth <= 0 || g.chance(30) {
		l := exprLeaves[t]
		return l[g.rnd.IntN(len(l))]
	}
	d := depth - 1
	switch t {
	case tNum:
		switch g.rnd.IntN(6) {
		case 0, 1:
			return "(" + g.texpr(tNum, d) + " " + g.pick("+", "-", "*", "/", "**") + " " + g.texpr(tNum, d) + ")"
		case 2:
			return "world.i " + g.pick("%", "/", "+") + " " + g.pick("2", "3", "world.i"+g.qq()+"1")
		case 3:
			return g.pick("abs", "round", "int", "float", "-") + "(" + g.texpr(tNum, d) + ")"
		case 4:
			return g.pick("max", "min") + "(" + g.texpr(tNum, d) + ", " + g.texpr(tNum, d) + ")"
		default:
			return "(" + g.texpr(tBool, d) + " ? " + g.texpr(tNum, d) + " : " + g.texpr(tNum, d) + ")"
		}
	case tStr:
		switch g.rnd.IntN(5) {
		case 0, 1:
			return "(" + g.texpr(tStr, d) + " + " + g.texpr(tStr, d) + ")"
		case 2:
			return g.pick("upper", "lower", "trim") + "(" + g.texpr(tStr, d) + ")"
		case 3:
			return "join(" + g.pick(`split(world.s, " ")`, `["a", "b"]`, "world.l") + ", " + g.pick(`","`, `""`) + ")"
		default:
			return "(" + g.texpr(tBool, d) + " ? " + g.texpr(tStr, d) + " : " + g.texpr(tStr, d) + ")"
		}
	case tBool:
		switch g.rnd.IntN(8) {
		case 0:
			return "(" + g.texpr(tBool, d) + " " + g.pick("&&", "||", "and", "or") + " " + g.texpr(tBool, d) + ")"
		case 1:
			return g.pick("!", "not ") + "(" + g.texpr(tBool, d) + ")"
		case 2:
			return "(" + g.texpr(tNum, d) + " " + g.pick("<", "<=", ">", ">=", "==", "!=") + " " + g.texpr(tNum, d) + ")"
		case 3:
			return "(" + g.texpr(tStr, d) + " " + g.pick("==", "!=", "<", "contains", "startsWith", "endsWith") + " " + g.texpr(tStr, d) + ")"
		case 4:
			return "(" + g.pick("world.i", "world.s", "world.o1", "world.mp.k") + " " + g.pick("in", "not in") + " " + g.texpr(tList, d) + ")"
		case 5:
			return g.pick("hasPrefix", "hasSuffix") + "(" + g.texpr(tStr, d) + ", " + g.pick(`"a"`, `""`, "world.s") + ")"
		case 6:
			return "(" + g.texpr(tAny, d) + " " + g.pick("==", "!=") + " " + g.pick(g.texpr(tAny, d), "world.i", "world.s", "nil", "1", `"x"`) + ")"
		default:
			return "((" + g.texpr(tAny, d) + g.qq() + "false) == " + g.pick("false", "true", "world.b") + ")"
		}
	case tList:
		switch g.rnd.IntN(3) {
		case 0:
			return "[" + g.texpr(tNum, d) + ", " + g.texpr(tStr, d) + "]"
		case 1:
			return "(" + g.texpr(tBool, d) + " ? " + g.texpr(tList, d) + " : " + g.texpr(tList, d) + ")"
		default:
			return g.texpr(tList, d) + g.pick("[1:]", "[:1]", "")
		}
	}
	switch g.rnd.IntN(4) {
	case 0:
		return "(" + g.texpr(tAny, d) + g.qq() + g.texpr(g.rnd.IntN(5), d) + ")"
	case 1:
		return "(" + g.texpr(tBool, d) + " ? " + g.texpr(g.rnd.IntN(5), d) + " : " + g.texpr(g.rnd.IntN(5), d) + ")"
	case 2:
		return g.pick("world.l", "world.lm", "[world.i, world.s]") + g.pick("[0]", "[-1]", "[1]") + g.pick("", ".name", "?.name")
	default:
		return g.texpr(g.rnd.IntN(4), d)
	}
}

// expr is an expression of any type; one in twenty mixes types wildly.
func (g *tgen) expr(depth int) string {
	if g.chance(5) {
		return "(" + g.texpr(g.rnd.IntN(5), depth-1) + ") " + g.pick("+", "<", "-", "in", "??", "==") + " (" + g.texpr(g.rnd.IntN(5), depth-1) + ")"
	}
	return g.texpr(g.rnd.IntN(5), depth)
}

// guard is a random expr-lang `when:` condition.
func (g *tgen) guard() string { return g.texpr(tBool, 2) }

// elementWhen is an element's when:, which counts by truthiness: a bool
// condition, or a value of any shape (a YAML whole number included).
func (g *tgen) elementWhen() string {
	if g.chance(50) {
		return g.guard()
	}
	return g.pick("world.i", "world.f", "world.s", "world.l", "world.mp", "world.lm", "world.z", "world.missing",
		"world.o1", "world.o2", "world.mp.k", "world.l[0]", "len(world.l)", "world.i - 1", "world.b", "!world.b", "world.mp.sub")
}

// Pongo2 atoms: variables of every shape, missing keys, literals.
var pongoAtoms = []string{
	"world.i", "world.f", "world.s", "world.b", "world.z", "world.l", "world.mp", "world.lm",
	"world.missing", "world.mp.k", "world.mp.name", "world.mp.sub.d", "world.l.0", "world.lm.0.name",
	"world.mp.nope.x", "world.o1", "world.o2", "slots.v", "state.path", "state.description",
}

var pongoLits = []string{"1", "2", "0", "2.5", `"a"`, `""`, "true", "false", "nil", `"<b>"`}

// The filters the corpus uses first, then other common pongo2 ones, and
// kitsoki's own.
var pongoFilters = []string{
	`default:"(none)"`, `default:""`, "length", "upper", "join:\", \"", "floatformat", "floatformat:2",
	`default:"-"`, "length", "upper", "lower", "title", "capfirst", "first", "last", "add:1", `add:"x"`,
	"add:2.5", "integer", "float", "yesno", `yesno:"y,n,m"`, "escape", "safe",
	"striptags", "truncatechars:3", "truncatewords:1", "wordcount", `cut:" "`, `slice:":2"`, "make_list",
	"urlencode", "length_is:2", "center:9", "ljust:6", "rjust:6", `stringformat:"%v"`, `stringformat:"%05.1f"`,
	"pluralize", "divisibleby:2", "linebreaksbr", "addslashes", "reverse", "col:6", "rcol:6", "reference",
	"wordwrap:4", `default_if_none:"n"`, "escapejs", "iriencode", `split:","`, "get_digit:1", `pluralize:"y,ies"`,
	"removetags:\"b\"", "title", "safe", "phone2numeric",
	"default:world.s", "join:world.s", "add:world.i", "add:world.f", "slice:\"1:\"", "slice:\":-1\"", "first|upper",
	"floatformat:world.i", "truncatechars:world.i", "rjust:world.i", "yesno:\"a,b\"", "length|add:1", "default:0|add:1",
	"lower|capfirst", "urlize", "linenumbers", "get_digit:2", "stringformat:\"%d\"", "stringformat:\"%s\"",
	"stringformat:\"%.2f\"", "integer|add:2", "float|floatformat:1",
}

func (g *tgen) patom() string {
	if g.chance(80) {
		return pongoAtoms[g.rnd.IntN(len(pongoAtoms))]
	}
	return pongoLits[g.rnd.IntN(len(pongoLits))]
}

// pexpr is a pongo2 expression: an atom with a filter chain, arithmetic,
// a comparison or kitsoki's ?? rewrite.
func (g *tgen) pexpr() string {
	a := g.patom()
	switch g.rnd.IntN(6) {
	case 0, 1, 2:
		for range g.rnd.IntN(3) {
			a += "|" + pongoFilters[g.rnd.IntN(len(pongoFilters))]
		}
		return a
	case 3:
		n := func() string {
			return g.pick("world.i", "world.f", "world.l|length", "1", "2", "2.5", "world.s|length", "world.mp.k")
		}
		return n() + " " + g.pick("+", "-", "*", "/", "%", "+", "*") + " " + n()
	case 4:
		return a + g.qq() + g.pick(`"d"`, "0", g.patom())
	default:
		return a
	}
}

// pcond is a pongo2 if-condition.
func (g *tgen) pcond() string {
	a := g.patom()
	switch g.rnd.IntN(9) {
	case 0:
		return a
	case 1:
		return "not " + a
	case 2:
		return a + " " + g.pick("==", "!=", "<", ">", "<=", ">=") + " " + g.patom()
	case 3:
		return g.pick(`"a"`, "1", `"k"`, "world.s") + " in " + a
	case 4:
		return a + "|length " + g.pick(">", "==") + " " + g.pick("0", "1", "2")
	case 5:
		return a + " " + g.pick("and", "or", "&&", "||") + " " + g.patom()
	case 6:
		return a + "|default:" + g.pick(`""`, "0", "false")
	case 7:
		return g.pick("world.i", "world.f", "world.s", "world.l|length") + " " + g.pick("==", "!=", "<", ">=", "<>") + " " +
			g.pick("world.i", "world.f", `"3"`, "3", "3.0", "world.s|length", "0")
	default:
		return a + " == " + g.pick(`""`, "nil", "0", "1.0", "true", "None")
	}
}

// pongo is a random pongo2 template of about n constructs.
func (g *tgen) pongo(n int) string {
	var parts []string
	for range 1 + g.rnd.IntN(n) {
		parts = append(parts, g.construct())
	}
	return strings.Join(parts, g.pick(" ", " | ", "\n"))
}

func (g *tgen) construct() string {
	switch g.rnd.IntN(16) {
	case 0, 1, 2, 3:
		return "{{ " + g.pexpr() + " }}"
	case 4:
		s := "{% if " + g.pcond() + " %}A{{ " + g.pexpr() + " }}"
		if g.chance(50) {
			s += "{% elif " + g.pcond() + " %}B"
		}
		if g.chance(60) {
			s += "{% else %}C{{ " + g.pexpr() + " }}"
		}
		return s + "{% endif %}"
	case 5, 6:
		over := g.pick("world.l", "world.lm", "world.s", "world.mp.sub.d", "world.missing", "world.z", "world.i", "world.o1", "world.l|reverse", "world.l|slice:\"1:\"")
		body := g.pick("{{ x }}", "{{ forloop.Counter }}:{{ x }}", "{{ x.name }}", "{{ x|upper }}",
			"{{ x }}{% if not forloop.Last %}, {% endif %}", "{{ forloop.Counter0 }}{{ forloop.First }}{{ forloop.Revcounter }}",
			"{% cycle \"o\" \"e\" %}{{ x }}")
		s := "{% for x in " + over + g.pick("", "", " reversed", " sorted") + " %}" + body
		if g.chance(50) {
			s += "{% empty %}" + g.pick("none", "", "{{ world.s }}")
		}
		return s + "{% endfor %}"
	case 7:
		// unsorted, a map's keys come in Go's random order on both engines
		return "{% for k, v in " + g.pick("world.mp", "world.lm.0", "world.mp.sub", "world.z") + " sorted %}{{ k }}={{ v }};{% endfor %}"
	case 8:
		if g.noInclude {
			return "{{ world.i }}"
		}
		return g.pick(`{% include "inc.pongo" %}`, `{% include "inc.pongo" with x=world.i %}`, `{% include "inc.pongo" with x=world.l only %}`)
	case 9:
		return "{% with x=" + g.patom() + " %}[{{ x" + g.pick("", "|length", "|default:\"w\"") + " }}]{% endwith %}"
	case 10:
		return "{% set y = " + g.patom() + g.pick("", "|length", "|upper", `|default:"e"`, " + 1") + " %}({{ y }})"
	case 11:
		return "{% firstof " + g.patom() + " " + g.patom() + ` "f" %}`
	case 12:
		return "{% filter " + g.pick("upper", "lower", "title", "capfirst|cut:\" \"") + " %}" + g.construct() + "{% endfilter %}"
	case 13:
		return g.pick("{# c #}", "{% comment %}x{% endcomment %}", "{% spaceless %} <b> {{ world.s }} </b> {% endspaceless %}",
			"{% autoescape on %}{{ world.s }}{% endautoescape %}", "{% ifequal world.i 1 %}one{% endifequal %}",
			"{% widthratio world.i 10 100 %}")
	case 14:
		return `{% macro mm(a, b="d") %}<{{ a }}|{{ b }}>{% endmacro %}{{ mm(` + g.patom() + `) }}`
	default:
		return "{{ " + g.patom() + " " + g.pick("==", "!=", "<", ">", "in", "and", "or") + " " + g.patom() + " }}"
	}
}

// view is a pongo2 string view or typed elements with when: guards.
func (g *tgen) view() any {
	if g.chance(45) {
		return "V " + g.pongo(3)
	}
	var els []any
	for range 1 + g.rnd.IntN(3) {
		var el m
		switch g.rnd.IntN(8) {
		case 0:
			el = m{"heading": g.pongo(1)}
		case 1:
			el = m{"prose": g.pongo(2)}
		case 2:
			pairs := m{}
			for _, k := range []string{"a", "bb", "ccc"}[:1+g.rnd.IntN(3)] {
				pairs[k] = g.pongo(1)
			}
			el = m{"kv": m{"pairs": pairs}}
		case 3:
			items := []any{g.pongo(1)}
			if g.chance(60) {
				items = append(items, m{"label": g.pongo(1), "hint": g.pick("h", "{{ world.s }}"), "when": g.guard()})
			}
			el = m{"list": m{"items": items}}
		case 4:
			el = m{g.pick("code", "template"): g.pongo(2)}
		case 5:
			el = m{"banner": m{"text": "B " + g.pongo(1), "subtitle": g.pick("", "{{ world.i }}")}}
		case 6:
			items := []any{m{"label": "look", "intent": "look", "hint": g.pongo(1)}}
			if g.chance(60) {
				items = append(items, m{"label": "go {{ world.s }}", "intent": "go", "when": g.guard()})
			}
			el = m{"choice": m{"mode": "single", "prompt": g.pick("Pick", "Pick {{ world.i }}"), "items": items}}
		default:
			el = m{"prose": "P " + g.pongo(1)}
		}
		if g.chance(40) {
			el["when"] = g.elementWhen()
		}
		els = append(els, el)
	}
	// at most one choice per view
	seen := false
	out := els[:0]
	for _, e := range els {
		if _, ok := e.(m)["choice"]; ok {
			if seen {
				continue
			}
			seen = true
		}
		out = append(out, e)
	}
	return out
}

// fixture is a short run of the story's intents.
func (g *tgen) fixture() m {
	f := m{
		"test_kind":     "flow",
		"app":           "../app.yaml",
		"initial_state": "s0",
	}
	if g.chance(40) {
		iw := m{}
		for range 1 + g.rnd.IntN(2) {
			k := g.pick(tmplKeys...)
			if g.chance(70) {
				iw[k] = g.value(k)
			} else {
				iw[k] = g.anyShape()
			}
		}
		f["initial_world"] = iw
	}
	turns := []any{m{"intent": m{"name": "look"}}}
	for range 2 + g.rnd.IntN(4) {
		in := g.pick("look", "go", "go", "step", "step", "put")
		t := m{"intent": m{"name": in}}
		if in == "put" && g.chance(80) {
			t["intent"] = m{"name": in, "slots": m{"v": g.pick(g.t.pool([]string{"x", "", "3", "<b>", "Zoë"})...)}}
		}
		turns = append(turns, t)
	}
	f["turns"] = turns
	return f
}

// writeTmpl writes n tmpl stories, story i from seed+i. Without known,
// the included file's ` ?? ` is written as the |default: it stands for:
// upstream parses a file as written and stops the run there, ours
// rewrites it (docs/compat/views.md, "`??` inside a template file").
func writeTmpl(dir string, n int, seed uint64, blocks, known bool) error {
	return writeTmplText(dir, n, seed, blocks, known, textOpts{})
}

// writeTmplText is writeTmpl with -text and -coalesce.
func writeTmplText(dir string, n int, seed uint64, blocks, known bool, t textOpts) error {
	for i := range n {
		g := newTgen(seed+uint64(i), t)
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		app, inc := g.story(fmt.Sprintf("tmpl-%d", seed+uint64(i)))
		fix := g.fixture()
		if !known {
			inc = expr.CoalesceRewritten(inc)
		}
		if blocks {
			bg := newBlockGen(seed + uint64(i))
			bg.apply(app)
			bg.apply(fix)
		}
		files := []agentFile{{"app.yaml", app}, {filepath.Join("flows", "f.yaml"), fix}, {filepath.Join("views", "inc.pongo"), "I " + inc}}
		if err := writeText(d, files, t); err != nil {
			return err
		}
	}
	return nil
}
