package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadPlainAt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", `{"type":"object"}`)
	write("big.json", strings.Repeat("x", 100))
	if err := os.Symlink(filepath.Join(dir, "a.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/b.json", "{}")
	makeFIFO(t, dir)
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if b, ok := ReadPlainAt(fd, "a.json", 64); !ok || string(b) != `{"type":"object"}` {
		t.Fatalf("a.json: %q %v", b, ok)
	}
	// Everything else is left to the caller's general path.
	for _, name := range []string{"big.json", "link.json", "sub/b.json", "sub", "fifo", "missing.json", "", ".", ".."} {
		if b, ok := ReadPlainAt(fd, name, 64); ok {
			t.Errorf("%q read (%q): want it left to the general path", name, b)
		}
	}
}
