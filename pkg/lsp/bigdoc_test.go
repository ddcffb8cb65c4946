package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// An editor buffer over the story YAML cap is refused as the same file on
// disk would be (a diagnostic naming the cap), never parsed; a whole-text
// change back under the cap is checked again. (Through the server's own
// handlers: a 64 MiB message through the JSON-RPC framing costs minutes
// under -race, and frame_test covers the framing.)
func TestBufferOverTheCapIsRefused(t *testing.T) {
	t.Parallel() // its own server and temp copy
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest, room := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "rooms", "work.yaml")
	s := New(Options{Root: dir})
	s.setRoots(nil)
	text, err := os.ReadFile(room)
	if err != nil {
		t.Fatal(err)
	}
	uri := pathURI(room)
	big := string(text) + "\n# " + strings.Repeat("x", int(maxFile)) + "\n"
	if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: big}}); err != nil {
		t.Fatal(err)
	}
	capped := func() bool {
		_, ds := s.ws.check(manifest, s.storyRoot(manifest), s.snapshot().raw)
		for _, d := range ds {
			if strings.Contains(d.Message, "cap for this kind of file") {
				return true
			}
		}
		return false
	}
	if !capped() {
		t.Fatal("a buffer over the cap was not refused")
	}
	p := &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{Version: 2}}
	p.TextDocument.URI = uri
	p.ContentChanges = []any{protocol.TextDocumentContentChangeEventWhole{Text: string(text)}}
	if err := s.didChange(nil, p); err != nil {
		t.Fatal(err)
	}
	if capped() {
		t.Fatal("a buffer back under the cap is still refused")
	}
}

// Ranged edits cannot grow a held buffer past the cap, whatever they add.
func TestRangedEditsCannotGrowABufferPastTheCap(t *testing.T) {
	t.Parallel() // its own server and temp copy
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
