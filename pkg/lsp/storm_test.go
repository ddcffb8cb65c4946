package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

// sync waits until the server has handled every message sent before it:
// the server handles messages in order, and answers an unknown request
// at once (its error is the answer).
func (c *client) sync() {
	c.t.Helper()
	var r any
	_ = c.Conn.Call(context.Background(), "kitsoki/sync", nil, &r)
}

// An edit storm while a check runs queues the edited file once: the story
// is checked once more, with the latest text, not once per edit (every
// edit used to leave a goroutine waiting to run a whole check, so a slow
// story's checks piled up without bound behind a fast typist, or behind a
// client that stopped reading what the checks publish).
func TestEditStormCoalesces(t *testing.T) {
	h := startHeld(t)
	c, room, text, checks, gate := h.c, h.room, h.text, &h.checks, h.gate
	const edits = 200
	for v := 2; v <= edits+1; v++ {
		change(c, room, fmt.Sprintf("%s# edit %d\n", text, v), int32(v))
	}
	c.sync()
	close(gate)
	c.waitUntil(room, func(p published) bool { return p.Version != nil && *p.Version == edits+1 })
	var syms any
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}, &syms)
	if n := checks.Load(); n > 2 {
		t.Fatalf("%d edits during a check ran %d checks; want the held one and one more with the latest text", edits, n)
	}
}

// One change of many ranged edits to a large buffer copies at most
// maxEditWork bytes: past it the buffer is not held, the file on disk is
// checked and the client is told why (each edit copied the whole buffer:
// 1,000 one-byte edits of a 4 MiB buffer copied 4 GB; a message holds a
// million). The bound is lowered to 4 MiB and the buffer to 64 KiB, the
// same thousand edits passing it as 4 MiB ones pass 1 GiB
// (TestServerBoundsAreTheDocumented holds the product's bound).
func TestRangedEditStormIsBounded(t *testing.T) {
	t.Parallel() // its own server and temp copy
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	srv := New(Options{Debounce: 0})
	srv.editWorkCap = 4 << 20
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	text := open(c, room)
	big := text + "# " + strings.Repeat("x", 64<<10) + "\n"
	change(c, room, big, 2)
	const edits = 1000
	at := protocol.Position{}
	changes := make([]any, edits)
	for i := range changes {
		changes[i] = protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: at, End: at}, Text: "#"}
	}
	c.Notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: pathURI(room)}, Version: 3},
		ContentChanges: changes,
	})
	got := c.waitUntil(room, func(p published) bool { return p.Version != nil && *p.Version == 3 })
	var note string
	for _, d := range got.Diagnostics {
		if d.Code == "open-buffers" {
			note = d.Message
		}
	}
	if !strings.Contains(note, "ranged edits") || !strings.Contains(note, "4 MiB of copying") || !strings.Contains(note, "work.yaml") {
		t.Fatalf("the dropped buffer is not told with its reason and the limit: %+v", got.Diagnostics)
	}
	// a whole-text change brings the buffer back
	change(c, room, text+"bogus_key: 1\n", 4)
	got = c.waitUntil(room, func(p published) bool { return p.Version != nil && *p.Version == 4 })
	for _, d := range got.Diagnostics {
		if d.Code == "open-buffers" {
			t.Fatalf("a whole-text change did not bring the buffer back: %+v", got.Diagnostics)
		}
	}
}

// The server keeps at most maxDocs open documents, however many a client
// opens or changes without opening; a file opened past it, and a path
// longer than any file path, are not kept (every one used to be, its path
// and buffer held until the session ended). The bound is lowered to 20
// (TestServerBoundsAreTheDocumented holds the product's 10,000).
func TestOpenDocumentsBounded(t *testing.T) {
	t.Parallel() // its own server and temp copy
	dir := t.TempDir()
	srv := New(Options{Debounce: 0})
	const maxDocs = 20
	srv.docsCap = maxDocs
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	name := strings.Repeat("n", 200)
	for i := range maxDocs + 50 {
		c.Open(filepath.Join(dir, fmt.Sprintf("%s%d.yaml", name, i)), "a: 1\n")
	}
	c.Change(filepath.Join(dir, "never-opened.yaml"), "a: 2\n", 2)
	c.Open(filepath.Join(dir, strings.Repeat("d/", maxPath)+"app.yaml"), "a: 3\n")
	c.sync()
	srv.mu.Lock()
	n := len(srv.docs)
	_, kept := srv.docs[filepath.Join(dir, "never-opened.yaml")]
	srv.mu.Unlock()
	if n > maxDocs || kept {
		t.Fatalf("the server keeps %d open documents (the limit is %d); a change of a file never opened kept: %v", n, maxDocs, kept)
	}
	if n != maxDocs {
		t.Fatalf("the server keeps %d open documents, want the first %d", n, maxDocs)
	}
	// one closed makes room for one more
	c.Notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(filepath.Join(dir, name+"0.yaml"))}})
	late := filepath.Join(dir, "late.yaml")
	c.Open(late, "a: 4\n")
	c.sync()
	srv.mu.Lock()
	_, kept = srv.docs[late]
	srv.mu.Unlock()
	if !kept {
		t.Fatal("a file opened after one was closed is not kept")
	}
}

// TestServerBoundsAreTheDocumented: a server keeps at most 10,000 open
// documents, one change's ranged edits copy at most 1 GiB and an answer
// carries at most 5,000 symbols or completion items, as
// docs/compat/hardening.md states; the tests above lower them.
func TestServerBoundsAreTheDocumented(t *testing.T) {
	if maxDocs != 10_000 || maxEditWork != 1<<30 || maxItems != 5000 {
		t.Fatalf("maxDocs %d, maxEditWork %d, maxItems %d; docs/compat/hardening.md says 10,000 documents, 1 GiB and 5,000", maxDocs, maxEditWork, maxItems)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(doc)), " ")
	for _, want := range []string{"At most 10,000 documents are kept open", "one change's ranged edits copy at most 1 GiB",
		"`documentSymbol` answers at most 5,000 symbols and completion at most 5,000 items"} {
		if !strings.Contains(flat, want) {
			t.Errorf("docs/compat/hardening.md no longer says %q", want)
		}
	}
	if s := New(Options{}); s.docsCap != maxDocs || s.editWorkCap != maxEditWork || s.itemsCap != maxItems {
		t.Fatalf("New: docsCap %d, editWorkCap %d, itemsCap %d; want maxDocs, maxEditWork and maxItems", s.docsCap, s.editWorkCap, s.itemsCap)
	}
}

// After shutdown only exit is served: a request is an InvalidRequest error
// naming it, a notification does nothing (requests used to be answered and
// opened files checked, after the client had said it was done).
func TestAfterShutdown(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	srv := New(Options{Debounce: 0})
	var checks atomic.Int32
	srv.onCheck = func(string) { checks.Add(1) }
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	var r any
	c.call("shutdown", nil, &r)
	open(c, room)
	err := c.Conn.Call(context.Background(), "textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}, &r)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInvalidRequest || !strings.Contains(rpcErr.Message, "textDocument/documentSymbol is refused; after shutdown send exit") {
		t.Fatalf("a request after shutdown: %v, want an InvalidRequest error naming it", err)
	}
	if n := checks.Load(); n != 0 {
		t.Fatalf("%d checks after shutdown", n)
	}
	srv.mu.Lock()
	n := len(srv.docs)
	srv.mu.Unlock()
	if n != 0 {
		t.Fatalf("a file opened after shutdown is kept (%d documents)", n)
	}
}

// A publish is labelled with the version of the text its check read, and
// its ranges are placed in that text: an edit made during the check is
// published by the next check (the publish used to take the version, and
// the text for its ranges, as they were when it was sent).
func TestPublishIsOfTheCheckedText(t *testing.T) {
	h := startHeld(t)
	c, room, text, gate := h.c, h.room, h.text, h.gate
	change(c, room, "bogus_key: 1\n"+text, 2)
	c.sync()
	close(gate)
	second := c.waitDiags(room, 2)
	first := c.waitDiags(room, 1)
	if first.Version == nil || *first.Version != 1 || len(first.Diagnostics) != 0 {
		t.Fatalf("the check of version 1 was published as %+v", first)
	}
	if second.Version == nil || *second.Version != 2 || len(second.Diagnostics) != 1 || second.Diagnostics[0].Range.Start.Line != 0 {
		t.Fatalf("the check of version 2 was published as %+v", second)
	}
}

// Stories that import each other are checked once per change each and
// the cycle is a diagnostic at the import that closes it, in the buffer
// as edited (no check re-enters the other story).
func TestImportCycleOverLSP(t *testing.T) {
	dir := t.TempDir()
	story := func(id, other string) string {
		return "app: {id: " + id + "}\nroot: s\nimports:\n  " + other + ":\n    source: ../" + other + "\n    entry: s\nstates:\n  s:\n    terminal: true\n"
	}
	a, b := filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "b", "app.yaml")
	for p, text := range map[string]string{a: story("a", "b"), b: story("b", "a")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := New(Options{Debounce: 0})
	var checks atomic.Int32
	srv.onCheck = func(string) { checks.Add(1) }
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	open(c, b)
	// the import that closes the cycle is a's (b imports a, a imports b)
	got := c.waitUntil(a, func(p published) bool { return len(p.Diagnostics) > 0 })
	if got.Diagnostics[0].Code != "imports" || !strings.Contains(got.Diagnostics[0].Message, "cycle detected") {
		t.Fatalf("the import cycle is not told: %+v", got)
	}
	var syms any
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(b)}}, &syms)
	if n := checks.Load(); n > 2 {
		t.Fatalf("one open of a story in an import cycle ran %d checks", n)
	}
}

// A flood of notifications naming made-up files queues nothing and keeps
// nothing: no check of a story that is not there (each saved app.yaml
// name used to be checked and kept as a story, so 5,000 made-up names
// kept 5,000 entries; and each queued a goroutine behind the check). 500
// names show it as well as 5,000: the bound is one story, whatever the
// flood.
func TestNotificationFloodKeepsNothing(t *testing.T) {
	t.Parallel() // its own server and temp copy
	h := startHeld(t)
	srv, c, dir, room, checks, gate := h.srv, h.c, h.dir, h.room, &h.checks, h.gate
	const flood = 500
	for i := range flood {
		uri := pathURI(filepath.Join(dir, fmt.Sprintf("made-up-%d", i), "app.yaml"))
		c.Notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
		c.Notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	}
	c.sync()
	srv.mu.Lock()
	queued := len(srv.dirty)
	srv.mu.Unlock()
	close(gate)
	var syms any
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}, &syms)
	if n, kept := checks.Load(), len(srv.ws.manifests()); queued > 1 || n > 1 || kept > 1 {
		t.Fatalf("a flood of %d made-up files queued %d stories, ran %d checks and keeps %d stories; want the one story", flood, queued, n, kept)
	}
}

// A message whose content never arrives holds the server only until its
// context ends (kitsoki lsp: a signal): Serve returns then.
func TestBodyThatNeverArrives(t *testing.T) {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	go func() { _, _ = io.Copy(io.Discard, cr) }()
	srv := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}})
	}()
	if _, err := io.WriteString(cw, "Content-Length: 1000\r\n\r\n{\"jsonrpc\":"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// A story of more states than maxItems answers documentSymbol and a
// target's completion with at most maxItems each, the completion list
// marked incomplete (a story of a million states answered with a million
// of each). The bound is lowered to 50 (TestServerBoundsAreTheDocumented
// holds the product's 5,000).
func TestSymbolsAndCompletionBounded(t *testing.T) {
	t.Parallel() // its own server and temp copy
	const maxItems = 50
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("app: {id: many}\nroot: s0\nstates:\n  s0:\n    on:\n      go:\n        - target: \n")
	for i := 1; i <= maxItems+500; i++ {
		fmt.Fprintf(&b, "  s%d:\n    terminal: true\n", i)
	}
	app := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(app, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Debounce: 0})
	srv.itemsCap = maxItems
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	open(c, app)
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(app)}}, &syms)
	if len(syms) == 0 || len(syms) > maxItems {
		t.Fatalf("%d document symbols for %d states; want at most %d", len(syms), maxItems+501, maxItems)
	}
	var list protocol.CompletionList
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(app)}, Position: protocol.Position{Line: 6, Character: 18}}}, &list)
	if len(list.Items) == 0 || len(list.Items) > maxItems || !list.IsIncomplete {
		t.Fatalf("%d completion items (incomplete %v) for %d targets; want at most %d, marked incomplete", len(list.Items), list.IsIncomplete, maxItems+501, maxItems)
	}
}

// held is a server whose first check (of the demo's rooms/work.yaml, opened
// as text) is running and held until gate is closed; checks counts them.
type held struct {
	srv             *Server
	c               *client
	dir, room, text string
	checks          atomic.Int32
	gate            chan struct{}
}

// startHeld starts a held server and returns once its first check runs.
func startHeld(t *testing.T) *held {
	h := &held{dir: storytest.TempCopy(t, "testdata/demo"), gate: make(chan struct{})}
	h.room = filepath.Join(h.dir, "rooms", "work.yaml")
	h.srv = New(Options{Debounce: 0})
	started := make(chan struct{})
	h.srv.onCheck = func(string) {
		if h.checks.Add(1) == 1 {
			close(started)
			<-h.gate
		}
	}
	h.c = startServer(t, h.srv, protocol.ClientCapabilities{}, h.dir)
	h.text = open(h.c, h.room)
	<-started
	return h
}
