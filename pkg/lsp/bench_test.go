package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

// BenchmarkRecheckAfterEdit is the work one keystroke costs once the
// debounce fires: validate the story with the edited buffer as overlay and
// load its model for navigation (goal: under 20 ms for a corpus story).
func BenchmarkRecheckAfterEdit(b *testing.B) {
	for _, name := range []string{"fix-tests", "pr-refinement", "conflict-resolve"} {
		src := storytest.Corpus(b, name)
		b.Run(name, func(b *testing.B) {
			manifest := filepath.Join(src, "app.yaml")
			text, err := os.ReadFile(manifest)
			if err != nil {
				b.Fatal(err)
			}
			edited := strings.Replace(string(text), "\nstates:", "\n# edited\nstates:", 1)
			ws := newWorkspace()
			overlay := map[string][]byte{manifest: []byte(edited)}
			b.ReportAllocs()
			for b.Loop() {
				ws.check(manifest, filepath.Dir(manifest), overlay)
			}
		})
	}
}

// BenchmarkHoverBigBuffer is one hover on an open buffer of 20,000 states
// that was hovered before: the buffer's tree is kept (parsed.go), so a
// request walks it rather than parsing the buffer again.
func BenchmarkHoverBigBuffer(b *testing.B) {
	dir := b.TempDir()
	manifest := filepath.Join(dir, "app.yaml")
	var sb strings.Builder
	sb.WriteString("app: {id: x}\nroot: a\nintents:\n  go: {title: go}\nstates:\n  a:\n    on:\n      go: b\n  b: {}\n")
	for i := range 20_000 {
		fmt.Fprintf(&sb, "  s%d:\n    on:\n      go: a\n", i)
	}
	if err := os.WriteFile(manifest, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := New(Options{})
	c := startServer(b, srv, protocol.ClientCapabilities{}, dir)
	c.Open(manifest, sb.String())
	params := protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)}, Position: protocol.Position{Line: 5, Character: 2}}}
	var h protocol.Hover
	c.Call("textDocument/hover", params, &h) // the first parses and checks
	b.ReportAllocs()
	for b.Loop() {
		c.Call("textDocument/hover", params, &h)
	}
}
