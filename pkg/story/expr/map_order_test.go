package expr

import (
	"fmt"
	"strings"
	"testing"
)

// mapOrderWorld has more keys than a Go map keeps in one group, so Go's map
// order differs between walks: digits that sort otherwise as numbers, an
// upper case letter, unicode, and a nested map.
func mapOrderWorld() Env {
	m := map[string]any{"b": 2, "a": 1, "10": "ten", "9": "nine", "Z": "z", "é": "e", "ä": "ae", "c": 3, "d": 4, "aa": 11}
	return Env{"world": map[string]any{"m": m, "n": map[string]any{"y": m, "x": map[string]any{"q": 1, "p": 2, "r": 3}}}}
}

const mapOrderKeys = "10,9,Z,a,aa,b,c,d,ä,é,"

// TestPongoMapLoopOrder: a for loop over a map walks it in sorted key
// order every time (Go's map order would give a different one almost
// every render); reversed alone changes nothing, reversed sorted
// descends.
func TestPongoMapLoopOrder(t *testing.T) {
	rev := "é,ä,d,c,b,aa,a,Z,9,10,"
	cases := []struct{ src, want string }{
		{"{% for k in world.m %}{{ k }},{% endfor %}", mapOrderKeys},
		{"{% for k, v in world.m %}{{ k }},{% endfor %}", mapOrderKeys},
		{"{% for k, v in world.m %}{{ v }};{% endfor %}", "ten;nine;z;1;11;2;3;4;ae;e;"},
		{"{% for k in world.m reversed %}{{ k }},{% endfor %}", mapOrderKeys},
		{"{% for k in world.m sorted %}{{ k }},{% endfor %}", mapOrderKeys},
		{"{% for k in world.m reversed sorted %}{{ k }},{% endfor %}", rev},
		{"{% for k, v in world.n %}{{ k }}[{% for i in v %}{{ i }},{% endfor %}]{% endfor %}", "x[p,q,r,]y[" + mapOrderKeys + "]"},
		{"{% for k in world.m %}{% if forloop.First %}{{ k }}{% endif %}{% if forloop.Last %}-{{ k }}{% endif %}{% endfor %}", "10-é"},
		{"{% for k in world.none %}x{% empty %}none{% endfor %}{% for k in world.n.x.q %}x{% empty %}-{% endfor %}", "none-"},
	}
	l := NewPongoLoader()
	for _, c := range cases {
		for i := range 100 {
			if got := pongoRender(t, l, c.src, mapOrderWorld()); got != c.want {
				t.Fatalf("render %d of %q = %q, want %q", i, c.src, got, c.want)
			}
		}
	}
}

// TestKeysOrder: expr-lang's keys() lists a map sorted, in a value, a
// guard and a {{ }} template's range.
func TestKeysOrder(t *testing.T) {
	v, err := CompileExpr("join(keys(world.m), ',')")
	if err != nil {
		t.Fatal(err)
	}
	g, err := CompileGuard("keys(world.m)[0] == '10' && keys(world.n)[1] == 'y'")
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := CompileTemplate("{{ range keys(world.m) }}{{ item }},{{ end }}")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(mapOrderKeys, ",")
	for i := range 100 {
		env := mapOrderWorld()
		if got, err := v.Eval(env); err != nil || got != want {
			t.Fatalf("eval %d: %v, %v; want %q", i, got, err, want)
		}
		if ok, err := g.EvalBool(env); err != nil || !ok {
			t.Fatalf("guard %d: %v, %v", i, ok, err)
		}
		if got, err := tpl.Render(env); err != nil || fmt.Sprint(got) != mapOrderKeys {
			t.Fatalf("template %d: %v, %v; want %q", i, got, err, mapOrderKeys)
		}
	}
}
