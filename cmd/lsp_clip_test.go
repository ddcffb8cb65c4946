package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/pkg/diag"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n *atomic.Int64
}

func (c countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// The real binary over pipes: an unsaved story whose 20 findings each
// quote a 64 KiB state name (one alias) gets its diagnostics published
// clipped, as validate prints them, and the server writes kilobytes.
func TestLSPPublishesClippedMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kitsoki binary")
	}
	bin := buildKitsoki(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "s", "app.yaml")
	if err := os.MkdirAll(filepath.Dir(manifest), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, []byte("app: {id: l, version: 0.1.0}\nroot: s0\nstates: {s0: {view: hi}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	text.WriteString("app: {id: l, version: 0.1.0}\nintents:\n")
	for i := range 20 {
		fmt.Fprintf(&text, "  go%d: {}\n", i)
	}
	text.WriteString("root: s0\nstates:\n  s0:\n    view: hi\n    on:\n")
	for i := range 20 {
		target := "*t"
		if i == 0 {
			target = "&t " + strings.Repeat("Q", 64<<10)
		}
		fmt.Fprintf(&text, "      go%d: [ { target: %s } ]\n", i, target)
	}

	srv := startLSP(t, bin, dir)
	var wrote atomic.Int64
	c := lsptest.Connect(t, procRWC{ReadCloser: struct {
		countingReader
		closer
	}{countingReader{srv.stdout, &wrote}, closer{srv.stdout.Close}}, WriteCloser: srv.stdin})
	c.Open(manifest, text.String())
	got := c.WaitUntil(manifest, func(p lsptest.Published) bool { return len(p.Diagnostics) >= 20 })

	for _, d := range got.Diagnostics {
		if len(d.Message) > diag.MaxMessage+64 || (d.Code == "target" && !strings.Contains(d.Message, "bytes left out")) {
			t.Fatalf("a %d-byte %s diagnostic was published: %.200s", len(d.Message), d.Code, d.Message)
		}
	}
	if n := wrote.Load(); n > int64(64*diag.MaxMessage) {
		t.Errorf("the server wrote %d bytes for %d diagnostics", n, len(got.Diagnostics))
	}
	c.Shutdown()
	srv.waitExit(t)
}

// closer is a Close method of a function.
type closer struct{ close func() error }

func (c closer) Close() error { return c.close() }
