//go:build linux

package opened

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// During runs fn and returns those of paths (files or directories) that
// were opened meanwhile, by anyone, in the order first seen. It skips the
// test where inotify cannot watch them.
func During(t testing.TB, paths []string, fn func()) []string {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify here: %v", err)
	}
	defer syscall.Close(fd)
	watch := map[int32]string{}
	for _, p := range append(paths, marker) {
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			t.Skipf("cannot watch %s: %v", p, err)
		}
		watch[int32(wd)] = p
	}
	fn()
	f, err := os.Open(marker)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	var got []string
	seen := map[string]bool{}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			p := watch[ev.Wd]
			if p == marker {
				return got // every event before the marker's has been read
			}
			if p != "" && ev.Mask&syscall.IN_OPEN != 0 && !seen[p] {
				seen[p] = true
				got = append(got, p)
			}
		}
	}
}
