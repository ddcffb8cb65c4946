package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"kitsoki/pkg/story/expr"
)

// The third kind of story (`gen write -kind view`): typed views of every
// element kind and view form (story-format.md §4.6): prose, heading, code,
// template, list (string items, {label, hint, when} items, marker:), kv
// (values rendering to numbers, bools, empty, long, multi-line, unicode
// and wide CJK text), banner (text, subtitle, color), choice (single with
// hints and params, multi, form with fields), media, element-level when:,
// {extends, blocks} over views/layout.pongo and {template_file}. The views
// sit on leaves, on a compound and its children, on a parallel root and
// its region leaves, on transitions and on a state an on_error redirect
// lands on; intents move between them and set world values of every
// shape, and the fixture visits every state so each view renders.

// vgen holds one view story's random choices.
type vgen struct {
	rnd   *rand.Rand
	t     textOpts
	texts []string // viewTexts, and wideTexts under -text wide
}

func newVgen(seed uint64, t textOpts) *vgen {
	return &vgen{rnd: rand.New(rand.NewPCG(seed, seed^0x452821e638d01377)), t: t, texts: t.pool(viewTexts)}
}

// txt is a text value from the story's pool.
func (g *vgen) txt() string { return g.texts[g.rnd.IntN(len(g.texts))] }

func (g *vgen) pick(xs ...string) string { return xs[g.rnd.IntN(len(xs))] }
func (g *vgen) chance(pct int) bool      { return g.rnd.IntN(100) < pct }

// The text values a view story's strings take: empty, spaces, long
// prose, several lines, unicode, wide CJK, tabs, markup, numbers as text.
// No rune outside the BMP: yaml.v3 writes it as a \U escape, which
// upstream's YAML reader drops (-text wide adds some, written as
// literal UTF-8: texts.go).
var viewTexts = []string{
	"", " ", "abc", "Zoë", "日本語のテキスト", "漢字 かな カナ 한국어", "a\nb", "line one\nline two\n", "\tindented",
	"  pad  ", "<b>&amp;</b>", "12", "true", "x: y", "- dash", "a-very-long-word-without-any-spaces-that-goes-on-and-on-past-the-width-of-eighty-cells",
	"The quick brown fox jumps over the lazy dog, and then it jumps again over the very same lazy dog because it can.",
	"star ★ sign", "mixed 日本 and ascii words in one long line that should wrap somewhere around the end of the line here",
	"trailing \n", "blank\n\nbetween", "wide ＡＢＣ fullwidth", "a  b   c",
	"日本\nabc", "ab\n日本語日本語", "\t日本", "日本語のテキストが長く続く場合にどこで折り返されるのかを確かめるための文章です日本語のテキストが長く続く",
	"漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字 漢字", "é́ combining", "x\ty\tz",
}

// The world keys of a view story and the values each may hold.
var viewShapes = map[string][]any{
	"i":  {0, 1, -3, 42, 1000000, plain("0x1F")},
	"f":  {plain("1.5"), plain("0.0"), plain("-2.25"), plain("3.0"), plain("1e3"), plain("0.1")},
	"s":  nil, // viewTexts
	"t":  nil, // viewTexts
	"b":  {true, false},
	"z":  {nil},
	"l":  {[]any{"a", "b"}, []any{}, []any{1, 2.5, true, nil}, []any{"日本", "x\ny"}, []any{[]any{1}, m{"k": "v"}}},
	"mp": {m{"k": 1, "name": "x"}, m{}, m{"name": "日本語", "sub": m{"d": []any{1, 2}}}, m{"k": "", "b": false}},
}

var viewTypes = map[string]string{
	"i": "int", "f": "float", "s": "string", "t": "string", "b": "bool", "z": "any", "l": "list", "mp": "object",
}

var viewKeys = []string{"b", "f", "i", "l", "mp", "s", "t", "z"}

func (g *vgen) value(k string) any {
	if k == "s" || k == "t" {
		return g.txt()
	}
	vs := viewShapes[k]
	return vs[g.rnd.IntN(len(vs))]
}

// ref is a pongo2 reference to a world value, sometimes through a filter.
func (g *vgen) ref() string {
	a := g.pick("world.i", "world.f", "world.s", "world.t", "world.b", "world.z", "world.l", "world.mp",
		"world.mp.name", "world.mp.k", "world.l.0", "world.missing", "state.path", "state.description",
		"slots.v", `available("to_c")`, `intent_status("put")`, `blocked("set1")`, "menu|length", "menu.primary.0.intent", "menu.blocked.0.reason", "menu.primary.1.destination_hint")
	if g.t.unspaced && g.chance(30) {
		a += g.t.coalesce(g.pick) + g.pick(`"d"`, "world.i", `""`, "world.missing", "0")
	}
	if g.chance(25) {
		a += "|" + g.pick("upper", "length", `default:"-"`, "join:\", \"", "floatformat:1", "yesno", "title", "wordwrap:10")
	}
	return "{{ " + a + " }}"
}

// text is an element's text: a literal, a reference, or a mix.
func (g *vgen) text() string {
	switch g.rnd.IntN(6) {
	case 0:
		return g.txt()
	case 1, 2:
		return g.ref()
	case 3:
		return g.txt() + " " + g.ref()
	case 4:
		return "{% if world.b %}" + g.ref() + "{% else %}" + g.txt() + "{% endif %}"
	default:
		return g.pick("T ", "x=", "", "— ") + g.ref() + g.pick("", " / "+g.ref(), "\n"+g.ref())
	}
}

// when is an element-level (or item-level) when: of any shape.
func (g *vgen) when() string {
	return g.pick("world.b", "!world.b", "world.i", "world.f", "world.s", "world.l", "world.mp", "world.z",
		"world.missing", "world.i > 0", "len(world.l) > 0", `world.s != ""`, "world.mp.k", "world.t")
}

// element is one typed view element; choice reports whether it may draw
// a choice (at most one per view, none inside blocks).
func (g *vgen) element(choice bool) m {
	n := 10
	if choice {
		n = 12
	}
	var el m
	switch g.rnd.IntN(n) {
	case 0:
		el = m{"prose": g.text()}
	case 1:
		el = m{"heading": g.text()}
	case 2:
		el = m{g.pick("code", "template"): g.text()}
	case 3, 4:
		var items []any
		for range 1 + g.rnd.IntN(4) {
			// upstream refuses an empty item or label at load time
			if g.chance(40) {
				items = append(items, "I "+g.text())
				continue
			}
			it := m{"label": g.pick("L ", "", "日本 ") + g.text()}
			if strings.TrimSpace(it["label"].(string)) == "" {
				it["label"] = "L" // upstream refuses a blank label at load time
			}
			if g.chance(70) {
				it["hint"] = g.text()
			}
			if g.chance(30) {
				it["when"] = g.when()
			}
			items = append(items, it)
		}
		el = m{"list": m{"items": items}}
		if g.chance(30) {
			el["list"].(m)["marker"] = g.pick("-", "*", "number", "→", "", "1.", "日")
		}
	case 5, 6:
		pairs := m{}
		for _, k := range []string{"Name", "a", "Longer key", "日本", "k2"}[:1+g.rnd.IntN(5)] {
			pairs[k] = g.text()
		}
		el = m{"kv": m{"pairs": pairs}}
	case 7:
		b := m{"text": g.pick("B ", "", "Title ") + g.text()}
		if strings.TrimSpace(b["text"].(string)) == "" {
			b["text"] = "B" // upstream refuses a blank banner text at load time
		}
		if g.chance(60) {
			b["subtitle"] = g.text()
		}
		if g.chance(40) {
			b["color"] = g.pick("red", "green", "#ff0000", "blue")
		}
		el = m{"banner": b}
	case 8:
		md := m{"handle": g.pick("h1", "vid", "日本")}
		if g.chance(70) {
			md["kind"] = g.pick("video", "image", "pdf", "html", "slideshow", "audio", "file")
		}
		if g.chance(60) {
			md["caption"] = g.pick("A caption", "{{ world.s }}", "", "日本の写真")
		}
		if g.chance(60) {
			md["path"] = g.pick("out/a.mp4", "/abs/x.png", "{{ world.t }}", "")
		}
		el = m{"media": md}
	case 9:
		el = m{"prose": "P " + g.text()}
	default:
		el = m{"choice": g.choice()}
	}
	if g.chance(30) {
		el["when"] = g.when()
	}
	return el
}

// choice is a choice element of a random mode.
func (g *vgen) choice() m {
	c := m{}
	if g.chance(70) {
		c["prompt"] = g.pick("Actions", "How do you respond?", "  Pick {{ world.i }}  ", "日本語", "")
	}
	switch g.rnd.IntN(4) {
	case 0:
		c["mode"] = "multi"
		c["intent"] = "pick"
		c["slot"] = "picks"
		if g.chance(40) {
			c["min"], c["max"] = 1, 2 // upstream refuses submit_label
		}
		var items []any
		for _, v := range []string{"a", "b", "c"}[:1+g.rnd.IntN(3)] {
			it := m{"value": v}
			if g.chance(60) {
				it["label"] = g.text()
			}
			if g.chance(20) {
				it["when"] = g.when()
			}
			items = append(items, it)
		}
		c["items"] = items
	case 1:
		c["mode"] = "form"
		c["intent"] = "fill"
		fields := m{}
		var refs []string
		for _, f := range []string{"a", "b", "c", "d"}[:1+g.rnd.IntN(4)] {
			fd := m{"type": formTypes[f]}
			if f == "d" {
				// a readonly field shows what its expr gives
				fd["readonly"] = true
				fd["expr"] = g.pick("world.i + 1", "world.s", "world.missing", "len(world.l)", `world.t + "!"`)
			}
			if g.chance(20) {
				fd["hint"] = g.text()
			}
			if g.chance(40) {
				fd["default"] = g.pick("no", "{{ world.i }}", "", "日本", "12")
			}
			if g.chance(40) {
				fd["placeholder"] = g.pick("type here", "", "a much longer placeholder")
			}
			if g.chance(20) {
				fd["when"] = g.when()
			}
			fields[f] = fd
			refs = append(refs, f+"={"+f+"}")
		}
		c["fields"] = fields
		c["template"] = strings.Join(refs, g.pick(" ", "\n", "  |  "))
	default:
		c["mode"] = "single"
		var items []any
		for _, in := range []string{"to_s0", "to_s1", "put"}[:1+g.rnd.IntN(3)] {
			it := m{"label": g.pick(in, "go "+in, "日本", "{{ world.s }}", "a much longer label for this item that goes on", "日本語のラベル"), "intent": in}
			if g.chance(60) {
				it["hint"] = g.text()
			}
			if in == "put" {
				p := m{"slot": "v", "type": "string"}
				if g.chance(60) {
					p["placeholder"] = g.pick("e.g. ls -la", "", "  {{ world.t }} ", "city")
				}
				if g.chance(50) {
					p["required"] = true
				}
				it["param"] = p
			}
			if g.chance(20) {
				it["when"] = g.when()
			}
			items = append(items, it)
		}
		c["items"] = items
	}
	return c
}

// The form fields a choice may draw, each typed as intent fill's slot.
var formTypes = map[string]string{"a": "string", "b": "int", "c": "bool", "d": "int"}

// elements is a typed element list of up to n elements, at most one
// choice unless noChoice.
func (g *vgen) elements(n int, noChoice bool) []any {
	var els []any
	seen := noChoice
	for range 1 + g.rnd.IntN(n) {
		el := g.element(!seen)
		if _, ok := el["choice"]; ok {
			seen = true
		}
		els = append(els, el)
	}
	return els
}

// transitionView is a transition's view: upstream refuses the mapping
// forms there at load time.
func (g *vgen) transitionView() any {
	if g.chance(10) {
		return "V " + g.text()
	}
	return g.elements(4, false)
}

// view is any view form: elements (most), a pongo2 string, extends and
// blocks, or a template file.
func (g *vgen) view() any {
	switch g.rnd.IntN(10) {
	case 0:
		return "V " + g.text()
	case 1:
		blocks := m{}
		for _, b := range []string{"main", "side"}[:1+g.rnd.IntN(2)] {
			// upstream refuses a block given as a string at load time
			blocks[b] = g.elements(3, true)
		}
		return m{"extends": "layout", "blocks": blocks}
	case 2:
		// upstream resolves a template file under views/ only: a
		// "views/tf.pongo" is a turn error there, which ours renders
		return m{"template_file": "tf.pongo"}
	default:
		return g.elements(4, false)
	}
}

// The intents that move to each state, and the state each one names.
var viewMoves = [][2]string{
	{"to_s0", "s0"}, {"to_s1", "s1"}, {"to_c", "c"}, {"to_c2", "c.c2"},
	{"to_p", "p"}, {"to_a2", "p.ra.a2"}, {"to_b2", "p.rb.b2"}, {"to_r", "r"},
}

// story builds the app.yaml of one view story and its two view files.
func (g *vgen) story(id string) (app m, layout, tf string) {
	world := m{}
	for _, k := range viewKeys {
		switch {
		case g.chance(20):
			world[k] = m{"type": "any", "default": g.value(k)}
		default:
			world[k] = m{"type": viewTypes[k], "default": g.value(k)}
		}
	}
	arcs := func(self string) m {
		on := m{}
		for _, mv := range viewMoves {
			arc := m{"target": mv[1]}
			if mv[1] == self {
				arc["target"] = "."
			}
			if g.chance(40) {
				arc["effects"] = g.sets()
			}
			// a transition view replaces the state's (on a parallel
			// region's arc too: conformance par-transition-view)
			if g.chance(10) {
				arc["view"] = g.transitionView()
			}
			on[mv[0]] = []any{arc}
		}
		on["set1"] = []any{m{"target": ".", "effects": g.sets()}}
		set2 := m{"target": ".", "effects": g.sets()}
		if g.chance(30) {
			set2["view"] = g.transitionView()
		}
		on["set2"] = []any{set2}
		on["put"] = []any{m{"target": ".", "effects": []any{m{"set": m{"t": "{{ slots.v }}"}}}}}
		on["pick"] = []any{m{"target": "."}}
		on["fill"] = []any{m{"target": "."}}
		return on
	}
	leaf := func(path string, withView int) m {
		st := m{"on": arcs(path)}
		if g.chance(withView) {
			st["view"] = g.view()
		}
		if g.chance(30) {
			st["description"] = g.pick("A room", "日本の部屋", "  spaced  ", "")
		}
		return st
	}
	states := m{
		"s0": leaf("s0", 100),
		"s1": leaf("s1", 100),
		"c": m{"type": "compound", "initial": "c1", "view": g.view(), "states": m{
			"c1": leaf("c.c1", 80), "c2": leaf("c.c2", 60),
		}},
		"p": m{"type": "parallel", "states": m{
			"ra": m{"type": "compound", "initial": "a1", "states": m{"a1": leaf("p.ra.a1", 80), "a2": leaf("p.ra.a2", 80)}},
			"rb": m{"type": "compound", "initial": "b1", "states": m{"b1": leaf("p.rb.b1", 80), "b2": leaf("p.rb.b2", 80)}},
		}},
		"r": m{"view": g.view(), "on_enter": []any{m{"invoke": "host.bad", "on_error": g.pick("s1", "c", "s0")}}},
	}
	if g.chance(60) {
		states["p"].(m)["view"] = g.view()
	}
	intents := m{"put": m{"description": "put", "slots": m{"v": m{"type": "string"}}}}
	intents["pick"] = m{"description": "pick", "slots": m{"picks": m{"type": "list[string]"}}}
	fill := m{}
	for f, t := range formTypes {
		fill[f] = m{"type": t}
	}
	intents["fill"] = m{"description": "fill", "slots": fill}
	for _, n := range []string{"set1", "set2"} {
		intents[n] = m{"description": n}
	}
	for _, mv := range viewMoves {
		intents[mv[0]] = m{"description": mv[0]}
	}
	app = m{
		"app":     m{"id": id, "version": "0.1.0"},
		"hosts":   []any{"host.bad"},
		"world":   world,
		"intents": intents,
		"root":    "s0",
		"states":  states,
	}
	layout = g.pick("", "== {{ state.path }} ==\n", "\n") + "{% block main %}default main{% endblock %}" +
		g.pick("\n--\n", " | ", "\n\n") + "{% block side %}{% endblock %}" + g.pick("", "\n", "\nfoot {{ world.i }}\n\n")
	tf = "TF " + g.text() + g.pick("", "\n", "\n\n") + g.text()
	return app, layout, tf
}

// sets is one or two set: effects writing literal values of any shape
// or a template.
func (g *vgen) sets() []any {
	var out []any
	for range 1 + g.rnd.IntN(2) {
		k := viewKeys[g.rnd.IntN(len(viewKeys))]
		var v any = g.value(k)
		if g.chance(15) {
			v = "{{ world.i }}"
			k = g.pick("s", "t")
		}
		out = append(out, m{"set": m{k: v}})
	}
	return out
}

// fixture visits every state, with set turns between, and checks a few
// views against patterns.
func (g *vgen) fixture() m {
	f := m{
		"test_kind":     "flow",
		"app":           "../app.yaml",
		"initial_state": "s0",
		"host_handlers": m{"host.bad": m{"error": "boom"}},
	}
	if g.chance(30) {
		iw := m{}
		k := viewKeys[g.rnd.IntN(len(viewKeys))]
		iw[k] = g.value(k)
		f["initial_world"] = iw
	}
	order := g.rnd.Perm(len(viewMoves))
	var turns []any
	add := func(in string) {
		t := m{"intent": m{"name": in}}
		if in == "put" {
			v := g.txt()
			if g.chance(20) {
				v = g.pick("{{ world.i }}", "{% if true %}x{% endif %}", "100%")
			}
			t["intent"] = m{"name": in, "slots": m{"v": v}}
		}
		if g.chance(25) {
			t["expect_view_matches"] = g.pick("•", "═", ":  ", `\[`, `^\S`, "日本", "_", `\n\n`, "True", "^$")
		}
		turns = append(turns, t)
	}
	for _, i := range order {
		if g.chance(50) {
			add(g.pick("set1", "set2", "put", "pick", "fill"))
		}
		add(viewMoves[i][0])
		if viewMoves[i][1] == "c" || viewMoves[i][1] == "p" {
			add(g.pick("to_c2", "to_a2", "to_b2", "set1"))
		}
	}
	f["turns"] = turns
	return f
}

// writeView writes n view stories, story i from seed+i.
func writeView(dir string, n int, seed uint64, blocks bool) error {
	return writeViewText(dir, n, seed, blocks, textOpts{})
}

// writeViewText is writeView with -text and -coalesce.
func writeViewText(dir string, n int, seed uint64, blocks bool, t textOpts) error {
	for i := range n {
		g := newVgen(seed+uint64(i), t)
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		app, layout, tf := g.story(fmt.Sprintf("view-%d", seed+uint64(i)))
		// upstream parses a template file as written: a `??` there stops
		// its run (docs/compat/views.md), so the file gets the |default:
		// it stands for
		tf = expr.CoalesceRewritten(tf)
		fix := g.fixture()
		if blocks {
			bg := newBlockGen(seed + uint64(i))
			bg.apply(app)
			bg.apply(fix)
		}
		files := []agentFile{{"app.yaml", app}, {filepath.Join("flows", "f.yaml"), fix}, {filepath.Join("views", "layout.pongo"), layout}, {filepath.Join("views", "tf.pongo"), tf}}
		if err := writeText(d, files, t); err != nil {
			return err
		}
	}
	return nil
}
