//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Every way of naming a file a hostile client has — outside the
// workspace, dot segments, percent-encoded dot segments, a link inside
// leading out, the workspace directory itself, a FIFO, /dev/zero and a
// link to it — gets an answer to each request on it (nothing waits for a
// writer or reads without end) and nothing of a file outside reaches the
// client; no document outside is published for.
func TestHostileURIsAnswered(t *testing.T) {
	ws, app, secret := rootsFixture(t, plainStory)
	if err := os.Symlink(secret, filepath.Join(ws, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(ws, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(ws, secret)
	if err != nil {
		t.Fatal(err)
	}
	uris := []string{
		"file:///etc/passwd",
		pathURI(secret),
		"file://" + ws + "/" + rel,
		"file://" + ws + "/" + strings.ReplaceAll(rel, "..", "%2e%2e"),
		"file://" + ws + "/" + strings.ReplaceAll(rel, "..", "%2E%2E"),
		pathURI(filepath.Join(ws, "link.yaml")),
		pathURI(ws),
		pathURI(filepath.Join(ws, "fifo.yaml")),
		pathURI(filepath.Join(ws, "zero.yaml")),
		"file:///dev/zero",
		// another host, a UNC path, a drive letter, a .git inside (red team 24)
		"file://otherhost" + secret,
		"file:////otherhost/share" + secret,
		"file:///C:" + secret,
		"file://" + ws + "/.git/config",
		"file://" + ws + "/%2egit/config",
	}
	c := startInProcessRoots(t, Options{Debounce: 0}, ws)
	open(c, app)
	for _, uri := range uris {
		at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 0, Character: 1}}
		var r any
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: at}, &r)
		c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: at}, &r)
		c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: at.TextDocument}, &r)
		c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: at}, &r)
		c.Notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: at.TextDocument})
		c.Notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: at.TextDocument})
	}
	settle(c, app)
	noCanary(t, c)
	for _, p := range c.Everything() {
		path, err := uriPath(p.URI)
		if err != nil || !strings.HasPrefix(path, ws+string(filepath.Separator)) || strings.HasSuffix(path, "link.yaml") {
			t.Fatalf("published for %s, not a file of the workspace's story", p.URI)
		}
	}
}
