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

// A repository whose included rooms are a FIFO, a link to /dev/zero and
// a 10 GB sparse file, with a FIFO fixture and a FIFO view beside them:
// opening its story answers (no open waits for a writer, nothing is read
// past a cap), each include is a diagnostic naming the file, and a
// definition request on one of them answers too.
func TestHostileFilesAnswered(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "rooms"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"rooms/fifo.yaml", "flows/f.yaml", "view.pongo"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "rooms", "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(filepath.Join(dir, "rooms", "sparse.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(10 << 30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	sparse.Close()
	app := filepath.Join(dir, "app.yaml")
	text := `app: { id: hostile }
include: [rooms/fifo.yaml, rooms/zero.yaml, rooms/sparse.yaml]
root: a
states:
  a:
    terminal: true
    view: view.pongo
`
	if err := os.WriteFile(app, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startInProcessRoots(t, Options{}, dir)
	c.Open(app, text)
	p := c.waitUntil(app, func(p published) bool { return len(p.Diagnostics) > 0 })
	all := ""
	for _, d := range p.Diagnostics {
		all += d.Message + "\n"
	}
	t.Log(all)
	for _, name := range []string{"fifo.yaml", "zero.yaml", "sparse.yaml"} {
		if !strings.Contains(all, name) {
			t.Errorf("no diagnostic names %s:\n%s", name, all)
		}
	}
	var locs []protocol.Location
	c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentUri("file://" + app)},
		Position:     posOf(t, text, "rooms/fifo.yaml", 2),
	}}, &locs)
}
