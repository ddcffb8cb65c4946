package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/pkg/story"
)

// FuzzNavigate: any open document, any cursor, read as hover, definition
// and completion read it against the demo story: no panic, a spot found
// sits on the cursor's line, a location found has a place, and a
// completion list stays within maxItems.
func FuzzNavigate(f *testing.F) {
	dir, err := filepath.Abs("testdata/demo")
	if err != nil {
		f.Fatal(err)
	}
	room := filepath.Join(dir, "rooms", "work.yaml")
	st, _ := story.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil {
		f.Fatal("demo story did not load")
	}
	for _, p := range []string{room, filepath.Join(dir, "app.yaml"), filepath.Join(dir, "schemas", "verdict.json")} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint16(3), uint16(12))
	}
	for _, s := range []string{"a: {{", "$ref: '#/a~1b/~0'", "states: {x: {on: {go: [{target: ../x}]}}}", "- !!binary é", "k: \"\\u00e9\"\n  ", "prompt: ../../../etc/passwd"} {
		f.Add(s, uint16(0), uint16(4))
	}
	f.Fuzz(func(t *testing.T, text string, line, char uint16) {
		ls := lines(text)
		if int(line) >= len(ls) {
			line = uint16(len(ls) - 1)
		}
		col := runeCol(ls[line], protocol.UInteger(char))
		sp := locate(parseTree(text), int(line)+1, col)
		before := ls[line][:lineByte(ls[line], protocol.UInteger(char))]
		if items := complete(st, text, int(line), before); len(items) > maxItems {
			t.Fatalf("%d completion items", len(items))
		}
		if sp == nil {
			return
		}
		if sp.node == nil || sp.node.Line != int(line)+1 {
			t.Fatalf("spot %+v off the cursor's line %d", sp.node, line+1)
		}
		r := classify(st, sp)
		_ = hoverText(st, r)
		if pos, ok := locationOf(st, room, r); ok && (pos.File == "" || pos.Line < 1 || pos.Col < 1) {
			t.Fatalf("%+v: location %+v has no place", r, pos)
		}
		if line, col := pointerPos([]byte(text), strings.TrimPrefix(sp.node.Value, "#")); line < 1 || col < 1 {
			t.Fatalf("pointer %q at %d:%d", sp.node.Value, line, col)
		}
	})
}
