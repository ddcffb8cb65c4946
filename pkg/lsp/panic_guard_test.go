package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/internal/testing/storytest"
)

// A panic in a request's handler answers that request an internal error
// in internal/panicked's wording, shows it to the user, writes the stack
// to Options.Stderr, and the session goes on: jsonrpc2 calls the handler
// on its read loop with no recover, and the panic ended the server.
func TestPanicInRequestFailsOnlyThatRequest(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	stderr := &storytest.SyncBuffer{}
	srv := New(Options{Debounce: 0, Stderr: stderr})
	srv.proto.TextDocumentHover = func(*glsp.Context, *protocol.HoverParams) (*protocol.Hover, error) {
		var doc *document
		return &protocol.Hover{Contents: doc.text}, nil // a nil dereference
	}
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	open(c, room)
	var r any
	err := c.Conn.Call(context.Background(), "textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}}, &r)
	want := "kitsoki lsp: textDocument/hover: the request panicked: runtime error: invalid memory address or nil pointer dereference (a kitsoki bug: please report it, with " + panicReport + ")"
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInternalError || rpcErr.Message != want {
		t.Fatalf("the panicking request: %v\nwant an internal error %q", err, want)
	}
	c.WaitShown("textDocument/hover: the request panicked")
	if s := stderr.String(); !strings.Contains(s, want) || !strings.Contains(s, "goroutine") {
		t.Fatalf("the stack is not on stderr:\n%s", s)
	}
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}, &syms)
	if len(syms) == 0 {
		t.Fatal("the next request is not answered")
	}
}

// A panic in a story's check (on the drain goroutine, after an edit) is
// shown to the user with its stack on stderr; the check of the next edit
// runs and publishes: the panic used to end the server, and a recover
// above the drain would have left checkMu held and no check ever again.
func TestPanicInCheckSparesTheNextCheck(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	stderr := &storytest.SyncBuffer{}
	srv := New(Options{Debounce: 0, Stderr: stderr})
	var boom atomic.Bool
	boom.Store(true)
	srv.onCheck = func(string) {
		if boom.Load() {
			panic("check boom")
		}
	}
	c := startServer(t, srv, protocol.ClientCapabilities{}, dir)
	text := open(c, room)
	msg := c.WaitShown("the check panicked: check boom (a kitsoki bug: please report it, with " + panicReport + ")")
	if !strings.Contains(msg, "the check of "+filepath.Join(dir, "app.yaml")) {
		t.Fatalf("the message does not name the story: %s", msg)
	}
	if s := stderr.String(); !strings.Contains(s, "check boom") || !strings.Contains(s, "goroutine") {
		t.Fatalf("the stack is not on stderr:\n%s", s)
	}
	boom.Store(false)
	change(c, room, "bogus_key: 1\n"+text, 2)
	c.WaitUntil(room, func(p lsptest.Published) bool { return p.Version != nil && *p.Version == 2 && len(p.Diagnostics) > 0 })
}
