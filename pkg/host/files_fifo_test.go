//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO where append_to_file or artifacts_dir would read the file it
// appends to is refused at once, naming it, instead of waiting for a
// writer that never comes (a story from a repository nobody vetted).
func TestAppendingToAFIFOIsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		h    Handler
		args map[string]any
		file string
	}{
		{"append_to_file", appendFileHandler{}, map[string]any{"thread": "arts/bug.md", "body": "x"}, "arts/bug.md"},
		{"artifacts_dir", artifactsHandler{getenv: noEnv}, map[string]any{"thread": "note", "body": "x", "artifacts_root": "arts"}, "arts/note.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			fifo := filepath.Join(wd, c.file)
			if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan string, 1)
			go func() {
				res, err := call(t, c.h, Env{WorkDir: wd, Now: fixedClock()}, c.args)
				if err != nil {
					res.Error = err.Error()
				}
				done <- res.Error
			}()
			select {
			case msg := <-done:
				if !strings.Contains(msg, "not a regular file") || !strings.Contains(msg, filepath.Base(c.file)) {
					t.Fatalf("error %q: want the FIFO refused by name", msg)
				}
			case <-time.After(time.Minute): // a hang, not a slow machine
				t.Fatal("the handler is still reading the FIFO")
			}
		})
	}
}
