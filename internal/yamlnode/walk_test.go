package yamlnode

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

var testRules = &Rules{
	Syntax:    &diag.Rule{ID: "yaml-syntax"},
	Type:      &diag.Rule{ID: "type"},
	Duplicate: &diag.Rule{ID: "duplicate-key"},
	Unknown:   &diag.Rule{ID: "unknown-key"},
}

// parse is src's root node and a walker of it reporting into *out.
func parse(t testing.TB, src string, out *[]diag.Diagnostic) (*yaml.Node, *Walker) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0], NewWalker("f.yaml", len(src), out, testRules)
}

func lines(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d %s %s %s\n", d.Line, d.Col, d.Severity, d.Rule, d.Message)
	}
	return b.String()
}

func TestMappingFindings(t *testing.T) {
	const src = `base: &b {say: hi}
a:
  <<: *b
  tagret: x
  when: y
  when: z
  [1]: k
  count: many
  flag: maybe
  n: 1.5
`
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	got := map[string]string{}
	w.Mapping(root, "top", nil, func(key string, _, v *yaml.Node) {
		if key != "a" {
			return
		}
		w.MappingIn(v, Place{Pre: "state ", Where: "a", Quote: true}, []string{"say", "target", "when", "count", "flag", "n"}, diag.Error, func(key string, _, v *yaml.Node) {
			switch key {
			case "count":
				got[key] = fmt.Sprint(w.Integer(v, "a.count"))
			case "flag":
				got[key] = fmt.Sprint(w.Boolean(v, "a.flag"))
			case "n":
				got[key] = fmt.Sprint(*w.Float(v, "a.n"))
			default:
				got[key] = w.Str(v, "a."+key)
			}
		})
	})
	want := `4:3 error unknown-key state "a": unknown key "tagret"; did you mean ` + "`target`" + `?
6:3 error duplicate-key state "a": mapping key "when" already defined at line 5, column 3
7:3 error type state "a": mapping keys must be strings, got a list
8:10 error type a.count: expected an integer, got "many"
9:9 error type a.flag: expected true or false, got "maybe"
`
	if lines(ds) != want {
		t.Errorf("findings:\n%s\nwant:\n%s", lines(ds), want)
	}
	if got["say"] != "hi" || got["when"] != "y" || got["count"] != "0" || got["flag"] != "false" || got["n"] != "1.5" {
		t.Errorf("values = %v", got)
	}
}

func TestTypeErrorsAndLists(t *testing.T) {
	const src = `l: [a, 1, true, [x]]
m: [1]
s: {k: v}
one: solo
`
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	var l, one []string
	var pos []Pos
	w.Mapping(root, "top", nil, func(key string, _, v *yaml.Node) {
		switch key {
		case "l":
			l = w.StrList(v, "l")
			pos = w.ItemPos(v)
		case "m":
			w.Mapping(v, "m", nil, func(string, *yaml.Node, *yaml.Node) { t.Error("m is a list") })
		case "s":
			w.Seq(v, "s", func(int, *yaml.Node) { t.Error("s is a mapping") })
		case "one":
			one = w.StrList(v, "one")
		}
	})
	want := `1:17 error type l[3]: expected a string, got a list
2:4 error type m: expected a mapping, got a list
3:4 error type s: expected a list, got a mapping
`
	if lines(ds) != want {
		t.Errorf("findings:\n%s\nwant:\n%s", lines(ds), want)
	}
	if strings.Join(l, ",") != "a,1,true," || len(pos) != 4 || pos[3] != (Pos{File: "f.yaml", Line: 1, Col: 17}) {
		t.Errorf("list = %q at %v", l, pos)
	}
	if len(one) != 1 || one[0] != "solo" {
		t.Errorf("scalar as a list = %q", one)
	}
}

// TestAliasBomb: aliases that fan out stop at the node budget with one
// positioned error, and a recursive alias is reported, not followed.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := range 7 {
		name := fmt.Sprintf("l%d", i)
		fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	src := b.String()
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	w.Raw(root)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "more than 2000") || ds[0].Rule != "yaml-syntax" {
		t.Fatalf("findings:\n%s", lines(ds))
	}
	if w.Budget >= 0 {
		t.Errorf("budget left: %d", w.Budget)
	}
}

func TestRecursiveAlias(t *testing.T) {
	const src = "a: &a\n  b: *a\n"
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	var walk func(n *yaml.Node, where string)
	walk = func(n *yaml.Node, where string) {
		w.Mapping(n, where, nil, func(key string, _, v *yaml.Node) { walk(v, where+"."+key) })
	}
	walk(root, "top")
	if len(ds) != 1 || ds[0].Message != "top.a.b: recursive or too deeply nested YAML (an alias refers to its own ancestor)" || ds[0].Line != 2 {
		t.Fatalf("findings:\n%s", lines(ds))
	}
	ds = nil
	root, w = parse(t, src, &ds)
	w.Raw(root)
	if len(ds) != 1 || ds[0].Message != "value: recursive YAML (an alias refers to its own ancestor)" {
		t.Fatalf("raw findings:\n%s", lines(ds))
	}
}

func TestRawValues(t *testing.T) {
	const src = `base: &b {x: 1, y: two}
m: {<<: *b, y: 3, z: [true, null, 0x10, 1.5, "s"]}
`
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	w.Interning = true
	v := w.Raw(root).(map[string]any)["m"]
	if got := fmt.Sprint(v); got != "map[x:1 y:3 z:[true <nil> 16 1.5 s]]" {
		t.Errorf("raw = %s", got)
	}
	if len(ds) != 0 {
		t.Errorf("findings:\n%s", lines(ds))
	}
}

func TestPlace(t *testing.T) {
	pl := Place{Pre: "state ", Where: "a", Quote: true, Key: "on_enter", Keyed: true}
	if got := pl.Item(2).String(); got != `state "a".on_enter[2]` {
		t.Errorf("item = %s", got)
	}
	if got := pl.Item(2).Item(0).String(); got != `state "a".on_enter[2][0]` {
		t.Errorf("nested item = %s", got)
	}
	for _, c := range []struct {
		p    Pos
		want string
	}{{Pos{}, "(unknown position)"}, {Pos{File: "f"}, "f"}, {Pos{File: "f", Line: 2, Col: 3}, "f:2:3"}} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestValuePosAndDescribe(t *testing.T) {
	var ds []diag.Diagnostic
	root, w := parse(t, "q: \"x\"\np: y\nlong: "+strings.Repeat("z", 50)+"\n", &ds)
	if got := w.ValuePos(Get(root, "q")); got.Col != 5 {
		t.Errorf("quoted value col = %d", got.Col)
	}
	if got := w.ValuePos(Get(root, "p")); got.Col != 4 {
		t.Errorf("plain value col = %d", got.Col)
	}
	if got := Describe(Get(root, "long")); got != `"`+strings.Repeat("z", 40)+`…"` {
		t.Errorf("describe = %s", got)
	}
	if Keys(root)[2] != "long" || Keys(Get(root, "p")) != nil {
		t.Errorf("keys = %q", Keys(root))
	}
}

// TestSeenLargeMapping: a mapping past smallMapping keys finds its
// repeated key through the map, at the first key's position.
func TestSeenLargeMapping(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	b.WriteString("k7: again\n")
	var ds []diag.Diagnostic
	root, w := parse(t, b.String(), &ds)
	n := 0
	w.Mapping(root, "top", nil, func(string, *yaml.Node, *yaml.Node) { n++ })
	if n != 40 || len(ds) != 1 || ds[0].Message != `top: mapping key "k7" already defined at line 8, column 1` || ds[0].Line != 41 {
		t.Fatalf("%d keys, findings:\n%s", n, lines(ds))
	}
}

// FuzzWalker: any document yaml.v3 parses is walked without a panic or a
// hang, and every finding has a position in the file.
func FuzzWalker(f *testing.F) {
	for _, s := range []string{
		"a: 1", "a: &a [*a]", "a: &a {b: *a}", "<<: [{x: 1}, 2]", "? [k]\n: v", "a: {a: 1, a: 2}",
		"- &x [*x, *x]\n- *x", "a: !!binary aGk=", "{a: [b, {c: d}]}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var doc yaml.Node
		if len(src) > 4096 || yaml.Unmarshal([]byte(src), &doc) != nil || len(doc.Content) == 0 {
			return
		}
		var ds []diag.Diagnostic
		w := NewWalker("f.yaml", len(src), &ds, testRules)
		w.Budget, w.Limit = 5000, 5000
		var walk func(n *yaml.Node, where string, depth int)
		walk = func(n *yaml.Node, where string, depth int) {
			if depth > 50 {
				return
			}
			switch d := Deref(n); {
			case d == nil:
			case d.Kind == yaml.MappingNode:
				w.Mapping(n, where, []string{"a", "b"}, func(key string, _, v *yaml.Node) { walk(v, where+"."+key, depth+1) })
			case d.Kind == yaml.SequenceNode:
				w.Seq(n, where, func(i int, v *yaml.Node) { walk(v, Indexed(where, i), depth+1) })
			default:
				w.Str(n, where)
				w.Integer(n, where)
			}
		}
		walk(doc.Content[0], "top", 0)
		w.Raw(doc.Content[0])
		for _, d := range ds {
			if d.File != "f.yaml" || strings.Contains(d.Message, "\n") {
				t.Fatalf("finding %+v", d)
			}
		}
	})
}

func TestErrLine(t *testing.T) {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte("a: [1\nb: 2\n"), &doc)
	if line, msg := ErrLine(err); line != 1 || msg != "did not find expected ',' or ']'" {
		t.Errorf("ErrLine(%q) = %d, %q", err, line, msg)
	}
	for _, c := range []struct {
		in, msg string
		line    int
	}{
		{"yaml: line 7: found character that cannot start any token", "found character that cannot start any token", 7},
		{"line 2: cannot unmarshal", "cannot unmarshal", 2},
		{"yaml: unmarshal errors:\n  line 3: x", "unmarshal errors:\n  line 3: x", 0},
		{"yaml: line x: y", "line x: y", 0},
	} {
		if line, msg := ErrLine(errors.New(c.in)); line != c.line || msg != c.msg {
			t.Errorf("ErrLine(%q) = %d, %q; want %d, %q", c.in, line, msg, c.line, c.msg)
		}
	}
}

// Raw merges `<<: *a` and `<<: [*a, *b]` as upstream's decoder reads a
// value: keys in file order, a later one winning (a later mapping of the
// list, a key written after the merge, the merge over a key written before).
func TestRawMerges(t *testing.T) {
	const src = `a: &a {x: a, y: a}
b: &b {y: b, z: b}
one: {<<: *a, x: own}
list: {<<: [*a, *b], w: own}
before: {x: own, <<: *a}
`
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	got := w.Raw(root).(map[string]any)
	if s := fmt.Sprint(got["one"], got["list"], got["before"]); s != "map[x:own y:a] map[w:own x:a y:b z:b] map[x:a y:a]" {
		t.Errorf("merged: %s", s)
	}
	if len(ds) != 0 {
		t.Errorf("findings: %s", lines(ds))
	}
}

func TestMappingListAndSeqList(t *testing.T) {
	var ds []diag.Diagnostic
	root, w := parse(t, "base: &b {x: 1}\nm: {<<: *b, y: 2, y: 3}\nl: [a, b]\nempty: {}\nnone:\nwrong: [1]\n", &ds)
	pair := func(key string, _, v *yaml.Node) string { return key + "=" + v.Value }
	item := func(i int, it *yaml.Node) string { return fmt.Sprint(i, it.Value) }
	if got := MappingList(w, Get(root, "m"), "m", pair); fmt.Sprint(got) != "[x=1 y=2]" {
		t.Errorf("MappingList(m) = %v", got)
	}
	if got := SeqList(w, Get(root, "l"), "l", item); fmt.Sprint(got) != "[0a 1b]" {
		t.Errorf("SeqList(l) = %v", got)
	}
	for _, k := range []string{"empty", "none", "wrong"} {
		if got := MappingList(w, Get(root, k), k, pair); got != nil {
			t.Errorf("MappingList(%s) = %#v, want nil", k, got)
		}
	}
	if got := SeqList(w, Get(root, "none"), "none", item); got != nil {
		t.Errorf("SeqList(none) = %#v, want nil", got)
	}
	if want := "2:19 error duplicate-key m: mapping key \"y\" already defined at line 2, column 13\n6:8 error type wrong: expected a mapping, got a list\n"; lines(ds) != want {
		t.Errorf("findings:\n%s\nwant:\n%s", lines(ds), want)
	}
}

// Only the first maxSuggestedKeys unknown keys of one mapping get a
// did-you-mean; the next says the search stopped, the rest are plain, so
// a file of nothing but unknown keys costs no search per key. Each is
// still reported.
func TestDidYouMeanCappedPerMapping(t *testing.T) {
	var src strings.Builder
	for i := range maxSuggestedKeys + 3 {
		fmt.Fprintf(&src, "tagret%d: x\n", i)
	}
	var ds []diag.Diagnostic
	root, w := parse(t, src.String(), &ds)
	known := make([]string, 0, maxSuggestedKeys+3)
	for i := range maxSuggestedKeys + 3 {
		known = append(known, fmt.Sprintf("target%d", i))
	}
	w.Mapping(root, "top", known, nil)
	if len(ds) != maxSuggestedKeys+3 {
		t.Fatalf("%d findings; want one per key, %d", len(ds), maxSuggestedKeys+3)
	}
	if !strings.HasSuffix(ds[maxSuggestedKeys-1].Message, fmt.Sprintf("did you mean `target%d`?", maxSuggestedKeys-1)) {
		t.Errorf("the last key suggested for: %q", ds[maxSuggestedKeys-1].Message)
	}
	if m := ds[maxSuggestedKeys].Message; strings.Contains(m, "did you mean") || !strings.Contains(m, fmt.Sprintf("past the first %d", maxSuggestedKeys)) {
		t.Errorf("the first key past the cap: %q; want the search said to stop", m)
	}
	if m := ds[maxSuggestedKeys+1].Message; m != fmt.Sprintf(`top: unknown key "tagret%d"`, maxSuggestedKeys+1) {
		t.Errorf("a later key: %q; want the plain finding", m)
	}
}
