package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// chainStory is a valid story of about size bytes: a chain of states.
func chainStory(id string, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: {id: %s}\nroot: s0\nintents:\n  go: {}\nstates:\n", id)
	i := 0
	for ; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  s%d:\n    on:\n      go:\n        - target: s%d\n", i, i+1)
	}
	fmt.Fprintf(&b, "  s%d:\n    terminal: true\n", i)
	return b.String()
}

// heldHeap is the heap in use after collecting, less base.
func heldHeap(base uint64) int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc) - int64(base)
}

func heapNow() uint64 { return uint64(heldHeap(0)) }

// openText opens path with text through the server's handler.
func openText(t *testing.T, s *Server, path, text string) {
	t.Helper()
	if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: pathURI(path), Version: 1, Text: text}}); err != nil {
		t.Fatal(err)
	}
}

// The open buffers take MaxOpenBytes of heap, not twice it: the bytes a
// check reads are the text's own (each buffer used to be held as typed and
// again as a []byte, so 128 MiB of buffers held 256 MiB). The check of
// a story whose buffer is shared leaves the text as it was.
func TestOverlaySharesTheText(t *testing.T) {
	dir := t.TempDir()
	const limit = 16 << 20
	s := New(Options{Root: dir, MaxOpenBytes: limit})
	s.setRoots(nil)
	base := heapNow()
	for i := range 24 { // past the limit: what is kept is the limit
		// not stories (no app.yaml): only the buffers are kept
		openText(t, s, filepath.Join(dir, fmt.Sprintf("f%d.yaml", i)), "# "+strings.Repeat("x", 1<<20)+"\n")
	}
	s.flush()
	bufs := s.snapshot()
	if got := heldHeap(base); got > limit*5/4 {
		t.Fatalf("%d MiB of open buffers (the limit) take %d MiB of heap once a check read them; want them held once", limit>>20, got>>20)
	}
	runtime.KeepAlive(bufs)

	story := chainStory("shared", 4<<10)
	path := filepath.Join(dir, "story", "app.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	crlf := "\ufeff" + strings.ReplaceAll(story, "\n", "\r\n")
	openText(t, s, path, crlf)
	s.flush()
	if txt, _ := s.text(path); txt != crlf {
		t.Fatal("a check changed the buffer it read")
	}
	s.stopTimers()
}

// What the server keeps after many big stories were opened, each checked,
// is bounded by its caps: the open buffers' MaxOpenBytes and the models of
// at most maxModelBytes of stories past the last one (some 10 to 20 times
// their bytes each). The 16 models kept used to hold 190 MiB for 1 MB
// stories: 3,000 of them opened held some 600 MB with 128 MiB of buffers.
// One story more than maxModels is enough: the count cap alone would keep
// 16 models of 512 KiB, over the bound, so only the byte cap passes it;
// more stories only check more of them for the same held heap.
func TestHeldHeapBoundedByTheCaps(t *testing.T) {
	const stories = maxModels + 1
	if testing.Short() {
		t.Skip("checks 17 stories of 512 KiB")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	const limit, size = 4 << 20, 512 << 10
	s := New(Options{Root: dir, MaxOpenBytes: limit})
	s.setRoots(nil)
	base := heapNow()
	for i := range stories {
		text := chainStory(fmt.Sprintf("s%d", i), size)
		path := filepath.Join(dir, fmt.Sprintf("s%d", i), "app.yaml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		openText(t, s, path, text)
		s.flush()
	}
	got := heldHeap(base)
	if want := int64(limit + 16*(maxModelBytes+size)); got > want {
		t.Fatalf("%d stories of %d KiB opened and checked hold %d MiB of heap; want at most %d MiB (%d MiB of buffers, models of %d MiB of stories)",
			stories, size>>10, got>>20, want>>20, limit>>20, (maxModelBytes+size)>>20)
	}
	s.stopTimers()
}
