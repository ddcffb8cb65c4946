package story

import (
	"kitsoki/internal/yamlnode"
	"testing"
)

var withPosCases = []string{
	"{cmd: echo, args: [\"{{ world.out }}\", b, [c, d]]}",
	"schema: s.json\ncontext:\n  prompt: p.md\n  items:\n    - text: a\n    - text: b\n",
	"{a: {x: 1}, a: {y: 2}, b.c: 3, \"d]\": 4, \"[0\": 5, \"\": 6}",
	"[x, {y: [1, 2]}]",
	"plain",
	"",
	"{a: &x {b: 1}, c: *x}",
	bigWith(),
}

// bigWith is a mapping large enough for recordWith's key index, with a
// repeated key.
func bigWith() string {
	s := "{a: {x: 1}"
	for i := range 80 {
		s += ", k" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": v"
	}
	return s + ", a: {y: 2}}"
}

var withPosQueries = []string{
	"", "cmd", "args", "args[0]", "args[2][1]", "args[02]", "args[+1]", "args[-1]", "args[9]", "args.x",
	"schema", "context.prompt", "context.items[1].text", "context.items[1]", "context.nope.x",
	"a", "a.x", "a.y", "b.c", "b", "d]", "d", "[0", "[0]", "[1].y[1]", "[1].y", "[x]", ".", "c.b", "c",
}

// TestWithPosTableMatchesNodes: the position table an effect keeps of its
// with: value answers every path as the node walk it replaces.
func TestWithPosTableMatchesNodes(t *testing.T) {
	for _, src := range withPosCases {
		for _, q := range withPosQueries {
			checkWithPos(t, src, q)
		}
	}
}

func checkWithPos(t *testing.T, src, q string) {
	t.Helper()
	doc, syn := decodeYAML([]byte(src), yamlnode.MaxNodes)
	if syn != nil || len(doc.Content) == 0 {
		return
	}
	d := doc.Content[0]
	p := newFileParser(&yamlnode.Reporter{}, "f.yaml", "", 0)
	table := &Effect{Pos: Pos{File: "f.yaml", Line: 1, Col: 1}}
	table.SetKeyPos("with", Pos{Line: 1, Col: 7})
	nodes := *table
	p.recordWith(table, d)
	nodes.with = &withIndex{node: d}
	if got, want := table.WithPos(q), nodes.withNodePos(q); got != want {
		t.Errorf("with: %q, withPos(%q) = %v, the node walk says %v", src, q, got, want)
	}
}

// FuzzWithPos: any with: value and query give the node walk's position.
func FuzzWithPos(f *testing.F) {
	for i, src := range withPosCases {
		f.Add(src, withPosQueries[i%len(withPosQueries)])
	}
	f.Fuzz(func(t *testing.T, src, q string) {
		if len(src) > 4096 {
			return
		}
		checkWithPos(t, src, q)
	})
}
