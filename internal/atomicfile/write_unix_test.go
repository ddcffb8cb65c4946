//go:build unix

package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A pipe (as /dev/stdout may be) is written in place and stays a pipe:
// renaming a temporary file over it would leave a regular file there. Its
// reader is there before the write (a FIFO nothing reads is refused:
// TestWriteFIFOWithoutReaderFailsAtOnce).
func TestWriteIntoPipeKeepsIt(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := openReader(t, fifo)
	if err := Write(fifo, []byte("profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "profile" {
		t.Errorf("read %q from the pipe", b)
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v, %v", st.Mode(), err)
	}
	ents, _ := os.ReadDir(filepath.Dir(fifo))
	if len(ents) != 1 {
		t.Errorf("left %d entries beside the pipe", len(ents))
	}
}
