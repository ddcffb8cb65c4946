//go:build unix

package schema

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSchemasDirFIFOIsRefused: schemas/ that is a FIFO, or a link inside
// the story to one, is refused naming it; os.Root's OpenRoot opened it and
// waited for a writer, so validate, test, run and lsp hung on a repository
// holding one (red team 47).
func TestSchemasDirFIFOIsRefused(t *testing.T) {
	for _, linked := range []bool{false, true} {
		dir := story(t, map[string]string{"app.yaml": "app: {id: s}\n"})
		fifo := filepath.Join(dir, "schemas")
		if linked {
			fifo = filepath.Join(dir, "pipe")
			if err := os.Symlink("pipe", filepath.Join(dir, "schemas")); err != nil {
				t.Fatal(err)
			}
		}
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := NewCompiler(dir).Compile("schemas/x.json")
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "schemas") || !strings.Contains(err.Error(), "a FIFO") {
				t.Errorf("linked %v: %v; want the schemas directory refused as a FIFO", linked, err)
			}
		case <-time.After(time.Minute): // a hang, not a slow machine
			t.Fatalf("linked %v: compiling a schema under a FIFO schemas/ hangs", linked)
		}
	}
}
