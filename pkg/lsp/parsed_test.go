package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

// TestParsedOncePerText: the hovers and definitions on one buffer parse
// its text once, a change parses the new text (the answers follow it), and
// a closed file is read and parsed from disk once while its size and
// modification time stay (each hover read and parsed it again), again
// when it is written.
func TestParsedOncePerText(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest := filepath.Join(dir, "app.yaml")
	srv := New(Options{})
	c := startServer(t, srv, protocol.ClientCapabilities{}, os.TempDir())
	text := open(c, manifest)
	hover := func(text string) string {
		t.Helper()
		var h protocol.Hover
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)}, Position: posOf(t, text, "work.doing", 1)}}, &h)
		b, _ := json.Marshal(h.Contents)
		if !strings.Contains(string(b), "**state** `work.doing`") {
			t.Fatalf("hover on work.doing: %s", b)
		}
		return string(b)
	}
	definition := func(text string) {
		t.Helper()
		var locs []protocol.Location
		c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)}, Position: posOf(t, text, "work.doing", 2)}}, &locs)
		if len(locs) != 1 {
			t.Fatalf("definition of work.doing: %+v", locs)
		}
	}
	parses := func(want int64) {
		t.Helper()
		if got := srv.parses.Load(); got != want {
			t.Fatalf("%d parses, want %d", got, want)
		}
	}
	for range 3 {
		hover(text)
		definition(text)
	}
	parses(1)

	// lines added above move every node: a tree kept from the old text
	// would find nothing at the new position
	text = "# one\n# two\n# three\n" + text
	change(c, manifest, text, 2)
	hover(text)
	definition(text)
	parses(2)

	c.Notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)}})
	hover(text[len("# one\n# two\n# three\n"):])
	hover(text[len("# one\n# two\n# three\n"):])
	parses(3)
	srv.mu.Lock()
	kept := srv.parsed.doc
	srv.mu.Unlock()
	if kept != nil {
		t.Error("the tree of a closed buffer is still kept")
	}
}

// TestClosedFileReadOncePerWrite: a file no buffer holds is read and
// parsed once for the requests on it (each hover read and parsed it
// again: seconds on a file of tens of MiB), and again once it is written.
func TestClosedFileReadOncePerWrite(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest := filepath.Join(dir, "app.yaml")
	srv := New(Options{})
	startServer(t, srv, protocol.ClientCapabilities{}, os.TempDir())
	var reads atomic.Int64
	srv.beforeRead = func(string) { reads.Add(1) }
	tree := func(wantFirst string) {
		t.Helper()
		ls, root, ok := srv.tree(manifest)
		if !ok || root == nil || len(ls) == 0 || ls[0] != wantFirst {
			t.Fatalf("tree of the closed file: ok %v, tree %v, first line %q; want %q", ok, root != nil, ls, wantFirst)
		}
	}
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	for range 3 {
		tree(first)
	}
	if r, p := reads.Load(), srv.parses.Load(); r != 1 || p != 1 {
		t.Fatalf("3 requests read the closed file %d times and parsed it %d; want once each", r, p)
	}
	if err := os.WriteFile(manifest, []byte("# moved\n"+string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	tree("# moved")
	tree("# moved")
	if r, p := reads.Load(), srv.parses.Load(); r != 2 || p != 2 {
		t.Fatalf("after a write: %d reads, %d parses; want 2 each", r, p)
	}
}
