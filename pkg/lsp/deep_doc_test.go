package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestDeepDocumentRequestsLinear: a 20 KB story nesting 9,990 lists (as
// deep as the YAML parser goes) costs each navigation request about its
// size: locate copied the key path at every level (redteam22: a hover
// past the nest took 10 s and allocated 800 MB, quadratic in the depth).
// Measured in bytes allocated by the server, never in time.
func TestDeepDocumentRequestsLinear(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "app.yaml")
	text := "app: { id: deep }\nroot: a\nstates:\n  a: " + strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + "\n"
	if err := os.WriteFile(app, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startInProcessRoots(t, Options{}, dir)
	c.Open(app, text)
	c.waitUntil(app, func(p published) bool { return len(p.Diagnostics) > 0 })
	pos := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(app)}, Position: protocol.Position{Line: 4, Character: 0}}
	inside := pos
	inside.Position = protocol.Position{Line: 3, Character: 9000} // in the nest
	for _, r := range []struct {
		method string
		params any
	}{
		{"textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: pos}},
		{"textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: pos}},
		{"textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: pos}},
		{"textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: pos.TextDocument}},
		{"textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: inside}},
		{"textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: inside}},
	} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		var out any
		c.call(r.method, r.params, &out)
		runtime.ReadMemStats(&m1)
		if mb := (m1.TotalAlloc - m0.TotalAlloc) >> 20; mb > 100 {
			t.Errorf("%s on a 20 KB document 9,990 lists deep allocated %d MB", r.method, mb)
		}
	}
}
