package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// An editor buffer over the story YAML cap is refused as the same file on
// disk would be (a diagnostic naming the cap), never parsed; and ranged
// edits that keep growing it do not grow what the server holds.
func TestBufferOverTheCapIsRefusedAndBounded(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest, room := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "rooms", "work.yaml")
	c := startInProcess(t, Options{})
	text := open(c, room)
	c.waitDiags(room, 1)
	big := text + "\n# " + strings.Repeat("x", int(maxFile)) + "\n"
	change(c, room, big, 2)
	capped := func(p published) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(d.Message, "cap for this kind of file") {
				return true
			}
		}
		return false
	}
	c.waitUntil(manifest, capped)
	// Back under the cap by a whole-text change: checked again.
	change(c, room, text, 3)
	c.waitUntil(manifest, func(p published) bool { return !capped(p) })
}

// Ranged edits cannot grow a held buffer past the cap, whatever they add.
func TestRangedEditsCannotGrowABufferPastTheCap(t *testing.T) {
	dir := t.TempDir()
	s := New(Options{Root: dir})
	s.setRoots(nil)
	path := filepath.Join(dir, "app.yaml")
	uri := pathURI(path)
	if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: "a: 1\n"}}); err != nil {
		t.Fatal(err)
	}
	chunk := strings.Repeat("y", int(maxFile)/2)
	at := protocol.Position{}
	for v := range 4 {
		p := &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{Version: protocol.Integer(v + 2)}}
		p.TextDocument.URI = uri
		p.ContentChanges = []any{protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: at, End: at}, Text: chunk}}
		if err := s.didChange(nil, p); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	n := len(s.docs[path].text)
	s.mu.Unlock()
	if int64(n) > maxFile+1 {
		t.Fatalf("held buffer grew to %d bytes, over the cap of %d", n, maxFile)
	}
}
