package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// TestFields reads every kind of destination, with a merge key, an
// unknown key (its did-you-mean from the table) and the each hook, and
// names the values that are of the wrong type.
func TestFields(t *testing.T) {
	const src = `base: &b {s: from-merge, n: 7}
m:
  <<: *b
  s: own
  b: yes
  bp: false
  f: 1.5
  l: [x, y]
  r: {k: v}
  p: here
  fn: called
  lsit: 1
bad:
  s: [1]
  b: maybe
  bp: [1]
  n: many
  f: abc
  l: {a: 1}
`
	var ds []diag.Diagnostic
	root, w := parse(t, src, &ds)
	var (
		s, p       string
		b          bool
		bp         *bool
		n          int
		f          *float64
		l          []string
		r          any
		pos        Pos
		readKey    string
		each       []string
		badS, badP string
		badB       bool
		badBP      *bool
		badN       int
		badF       *float64
		badL       []string
		badEach    int
	)
	w.Fields(root, "", Fields{
		{Key: "base"},
		{Key: "m", Read: func(_, v *yaml.Node) {
			w.FieldsAt(v, Place{Pre: "state ", Where: "m", Quote: true}, Place{Where: "states.m"}, diag.Warning, Fields{
				{Key: "s", Str: &s},
				{Key: "b", Bool: &b},
				{Key: "bp", BoolP: &bp},
				{Key: "n", Int: &n},
				{Key: "f", Float: &f},
				{Key: "l", List: &l},
				{Key: "r", Raw: &r},
				{Key: "p", Str: &p, Pos: &pos},
				{Key: "fn", Read: func(k, _ *yaml.Node) { readKey = k.Value }},
				{Key: "list"},
			}, func(key string, _, _ *yaml.Node) { each = append(each, key) })
		}},
		{Key: "bad", Read: func(_, v *yaml.Node) {
			w.FieldsAt(v, Place{Where: "bad"}, Place{}, diag.Error, Fields{
				{Key: "s", Str: &badS},
				{Key: "b", Bool: &badB},
				{Key: "bp", BoolP: &badBP},
				{Key: "n", Int: &badN},
				{Key: "f", Float: &badF},
				{Key: "l", List: &badL},
				{Key: "p", Str: &badP},
			}, func(string, *yaml.Node, *yaml.Node) { badEach++ })
		}},
	})
	if s != "own" || !b || bp == nil || *bp || n != 7 || f == nil || *f != 1.5 || strings.Join(l, ",") != "x,y" || p != "here" || readKey != "fn" {
		t.Errorf("read s=%q b=%v bp=%v n=%d f=%v l=%v p=%q fn=%q", s, b, bp, n, f, l, p, readKey)
	}
	if m, ok := r.(map[string]any); !ok || m["k"] != "v" {
		t.Errorf("raw r = %#v", r)
	}
	if pos != (Pos{File: "f.yaml", Line: 10, Col: 6}) {
		t.Errorf("pos of p = %v", pos)
	}
	if got := strings.Join(each, ","); got != "s,n,s,b,bp,f,l,r,p,fn" {
		t.Errorf("each saw %s", got)
	}
	if badEach != 6 || badS != "" || badB || badBP == nil || *badBP || badN != 0 || badF != nil || badL != nil {
		t.Errorf("bad values read as %q %v %v %d %v %v (each %d)", badS, badB, badBP, badN, badF, badL, badEach)
	}
	want := `12:3 warning unknown-key state "m": unknown key "lsit"; did you mean ` + "`list`" + `?
14:6 error type s: expected a string, got a list
15:6 error type b: expected true or false, got "maybe"
16:7 error type bp: expected true or false, got a list
17:6 error type n: expected an integer, got "many"
18:6 error type f: expected a number, got "abc"
19:6 error type l: expected a list, got a mapping
`
	if got := lines(ds); got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}

// TestFieldsTopLevelNames checks that a top-level table (the zero vals
// Place) names a value by its key alone, and Find and Keys.
func TestFieldsTopLevelNames(t *testing.T) {
	var ds []diag.Diagnostic
	root, w := parse(t, "hosts: {a: 1}\n", &ds)
	var hosts []string
	fs := Fields{{Key: "hosts", List: &hosts}, {Key: "app"}}
	w.FieldsAt(root, Place{Where: "top level"}, Place{}, diag.Error, fs, nil)
	if got := lines(ds); got != "1:8 error type hosts: expected a list, got a mapping\n" {
		t.Errorf("findings: %s", got)
	}
	if fs.Find("app") != &fs[1] || fs.Find("nope") != nil || strings.Join(fs.Keys(), ",") != "hosts,app" {
		t.Errorf("Find/Keys wrong: %v", fs.Keys())
	}
}

// An unknown key with no close spelling lists the keys the place takes,
// sorted, as actionlint does; a key read only to be refused is not
// offered, and a table too long to read lists nothing.
func TestUnknownKeyExpectedOneOf(t *testing.T) {
	var ds []diag.Diagnostic
	root, w := parse(t, "m:\n  colour: red\n  old: 1\n", &ds)
	var s string
	w.Mapping(root, "top", nil, func(_ string, _, v *yaml.Node) {
		w.Fields(v, "m", Fields{{Key: "view", Str: &s}, {Key: "type", Str: &s}, {Key: "old", Refused: true, Read: func(k, _ *yaml.Node) {}}})
	})
	want := "2:3 error unknown-key m: unknown key \"colour\"; expected one of `type`, `view`\n"
	if got := lines(ds); got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
	many := make([]string, maxExpected+1)
	for i := range many {
		many[i] = fmt.Sprintf("k%02d", i)
	}
	if got := expectedOneOf(many); got != "" {
		t.Errorf("a table of %d keys listed: %q", len(many), got)
	}
}
