//go:build linux

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// TestNonRegularNeverOpened proves, with inotify's open events, that a
// FIFO and a character device are refused without being opened: some
// devices act on an open alone (a serial port resets its board). A marker
// file opened afterwards ends the event stream, so the test waits for an
// event, never for time.
func TestNonRegularNeverOpened(t *testing.T) {
	dir := t.TempDir()
	fifo := makeFIFO(t, dir)
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify here: %v", err)
	}
	defer syscall.Close(fd)
	refused := []string{fifo}
	// A character device of our own (the null device's numbers) where
	// mknod is allowed: /dev/null itself is opened by every other process.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		refused = append(refused, dev)
	} else {
		t.Logf("no character device of our own (%v): the FIFO alone is checked", err)
	}
	watch := map[int32]string{}
	for _, p := range append(refused, marker) {
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			t.Skipf("cannot watch %s: %v", p, err)
		}
		watch[int32(wd)] = p
	}
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
	f, err := os.Open(marker)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			switch p := watch[ev.Wd]; p {
			case marker:
				return // every event before the marker's has been seen
			case "":
			default:
				t.Fatalf("%s was opened", p)
			}
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}
