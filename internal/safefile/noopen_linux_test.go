//go:build linux

package safefile

import (
	"path/filepath"
	"syscall"
	"testing"

	"kitsoki/internal/testing/opened"
)

// TestNonRegularNeverOpened proves, with inotify's open events, that a
// FIFO and a character device are refused without being opened: some
// devices act on an open alone (a serial port resets its board).
func TestNonRegularNeverOpened(t *testing.T) {
	dir := t.TempDir()
	fifo := makeFIFO(t, dir)
	refused := []string{fifo}
	// A character device of our own (the null device's numbers) where
	// mknod is allowed: /dev/null itself is opened by every other process.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		refused = append(refused, dev)
	} else {
		t.Logf("no character device of our own (%v): the FIFO alone is checked", err)
	}
	got := opened.During(t, refused, func() {
		for _, p := range refused {
			if _, err := ReadFile(p, Story); err == nil {
				t.Fatalf("ReadFile(%s) read a non-regular file", p)
			}
			if _, err := Open(p, Story); err == nil {
				t.Fatalf("Open(%s) opened a non-regular file", p)
			}
			// The confined read (os.Root) keeps the rule.
			r := NewRoot(filepath.Dir(p))
			_, err := r.ReadFile(p, Story)
			r.Close()
			if err == nil {
				t.Fatalf("Root.ReadFile(%s) read a non-regular file", p)
			}
		}
	})
	if len(got) > 0 {
		t.Fatalf("%s was opened", got)
	}
}
