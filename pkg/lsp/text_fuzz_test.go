package lsp

import (
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// FuzzApplyEdit: a didChange range a client sends (lines and UTF-16
// columns anywhere, start after end, invalid UTF-8 in the text) never
// panics, and the edit keeps the text outside the range: the result is a
// prefix of the text, the new text, then a suffix of it.
func FuzzApplyEdit(f *testing.F) {
	f.Add("a: 1\nb: 2\n", uint32(0), uint32(0), uint32(1), uint32(2), "x")
	f.Add("é🔑\n\xff\xfe\n", uint32(0), uint32(1), uint32(0), uint32(3), "")
	f.Add("", uint32(4294967295), uint32(4294967295), uint32(0), uint32(0), "y")
	// columns inside a surrogate pair (a UTF-16 half of 🔑), lines past the end
	f.Add("🔑🔑\n🔑\n", uint32(0), uint32(1), uint32(1), uint32(1), "\xed\xa0\x80")
	f.Add("a\n\n\nb", uint32(2), uint32(4294967295), uint32(4294967295), uint32(1), "z")
	f.Fuzz(func(t *testing.T, text string, l1, c1, l2, c2 uint32, repl string) {
		c := protocol.TextDocumentContentChangeEvent{
			Range: &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}},
			Text:  repl,
		}
		out := applyEdit(text, c)
		if len(out) > len(text)+len(repl) {
			t.Fatalf("edit grew the text past text+new: %d > %d+%d", len(out), len(text), len(repl))
		}
		a, b := byteOffset(text, c.Range.Start), byteOffset(text, c.Range.End)
		if a > b {
			a, b = b, a
		}
		if a < 0 || b > len(text) || out != text[:a]+repl+text[b:] || !strings.HasPrefix(out, text[:a]) {
			t.Fatalf("edit [%d,%d) of %q with %q gave %q", a, b, text, repl, out)
		}
	})
}
