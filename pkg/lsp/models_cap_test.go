package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The workspace keeps the models of the maxModels stories checked last,
// however many stories an editor opens and closes over a session (each
// model takes some 20 times its story's bytes, and every model used to be
// kept until the server exited: 50 stories of 366 KB opened and closed
// held 423 MB). A story whose model was dropped still navigates: it is
// checked again.
func TestStoryModelsBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Root: dir})
	s.setRoots(nil)
	const n = 3 * maxModels
	var first string
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("s%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("app: {id: s%d}\nroot: a\nintents:\n  go: {}\nstates:\n  a:\n    on:\n      go:\n        - target: b\n  b:\n    terminal: true\n", i)
		path := filepath.Join(d, "app.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = path
		}
		uri := pathURI(path)
		if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: text}}); err != nil {
			t.Fatal(err)
		}
		s.flush()
		if err := s.didClose(nil, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}); err != nil {
			t.Fatal(err)
		}
		s.flush()
	}
	held := 0
	s.ws.mu.Lock()
	for _, e := range s.ws.stories {
		if e.st != nil {
			held++
		}
	}
	known := len(s.ws.stories)
	s.ws.mu.Unlock()
	if held > maxModels {
		t.Fatalf("%d story models held after %d stories were opened and closed; want at most %d", held, n, maxModels)
	}
	if known != n {
		t.Fatalf("%d stories known, want %d (their file lists stay for storiesOf)", known, n)
	}
	// the first story's model was dropped: going to a definition checks it again
	def, err := s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(first)}, Position: protocol.Position{Line: 8, Character: 19}}})
	if err != nil {
		t.Fatal(err)
	}
	locs, _ := def.([]protocol.Location)
	if len(locs) != 1 || locs[0].Range.Start.Line != 9 {
		t.Fatalf("definition of target b in a dropped story = %#v, want line 10 (b:)", def)
	}
}
