package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/testing/storytest"
)

// The open buffers hold at most MaxOpenBytes together, however many
// documents a client opens (each may hold up to the story YAML cap, and
// every one used to be kept: an editor, or an extension opening every
// file of a repository, could make the server hold any number of 64 MiB
// buffers).
func TestOpenBuffersBounded(t *testing.T) {
	dir := t.TempDir()
	const limit = 64 << 10
	s := New(Options{Root: dir, MaxOpenBytes: limit})
	s.setRoots(nil)
	text := "# " + strings.Repeat("x", 10<<10) + "\n"
	for i := range 100 {
		uri := pathURI(filepath.Join(dir, fmt.Sprintf("f%d.yaml", i)))
		if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: text}}); err != nil {
			t.Fatal(err)
		}
		// a ranged edit cannot grow a held buffer past the limit either
		p := &protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{Version: 2}}
		p.TextDocument.URI = uri
		p.ContentChanges = []any{protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{}, Text: text}}
		if err := s.didChange(nil, p); err != nil {
			t.Fatal(err)
		}
	}
	s.flush()
	held := 0
	for _, b := range s.snapshot().raw {
		held += len(b)
	}
	if held > limit {
		t.Fatalf("the open buffers hold %d bytes, over the limit of %d", held, limit)
	}
	s.stopTimers()
}

// A buffer that does not fit is not held: its story is checked with the
// file as saved on disk, and the client is told so on that file (rule
// open-buffers) until a change that fits brings the buffer back.
func TestUnheldBufferIsToldAndCheckedFromDisk(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	c := startInProcess(t, Options{Debounce: 0, MaxOpenBytes: 16 << 10})
	saved, err := os.ReadFile(room)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(saved), "    initial: doing\n", "    initial: doing\n    bogus_key: 1\n", 1)
	note := func(p published) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "open-buffers" && strings.Contains(d.Message, "as saved on disk") {
				return true
			}
		}
		return false
	}
	unknown := func(p published) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(d.Message, "bogus_key") {
				return true
			}
		}
		return false
	}
	c.Open(room, broken+"# "+strings.Repeat("x", 32<<10)+"\n")
	got := c.waitUntil(room, note)
	if unknown(got) {
		t.Fatalf("the unheld buffer was checked as edited: %+v", got.Diagnostics)
	}
	c.Change(room, broken, 2)
	got = c.waitUntil(room, unknown)
	if note(got) {
		t.Fatalf("a buffer that fits is still said to be unheld: %+v", got.Diagnostics)
	}
}

// A check reads the open buffers without copying them: the overlay of
// every check used to copy every open buffer, so with many files open each
// keystroke's check allocated all their bytes again.
func TestOverlayDoesNotCopyBuffers(t *testing.T) {
	dir := t.TempDir()
	s := New(Options{Root: dir})
	s.setRoots(nil)
	text := "# " + strings.Repeat("x", 64<<10) + "\n"
	const n = 64
	s.mu.Lock()
	for i := range n {
		d := &document{}
		s.hold(d, text)
		s.docs[filepath.Join(dir, fmt.Sprintf("f%d.yaml", i))] = d
	}
	s.mu.Unlock()
	s.snapshot()
	got := allocs.During(func() {
		for range 10 {
			s.snapshot()
		}
	})
	// Copying would cost 10 × total; the allowance of 2 × total leaves room
	// for what the rest of the process allocates meanwhile (TotalAlloc is
	// process-wide: under -race a stray goroutine's garbage once passed the
	// old quarter).
	if total := uint64(n * len(text)); got > 2*total {
		t.Fatalf("10 overlays of %d open buffers (%d bytes) allocated %d bytes; want the buffers shared, not copied", n, total, got)
	}
}
