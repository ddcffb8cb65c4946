//go:build linux

package fetch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// smallDisk mounts a tmpfs of size bytes at a fresh directory, or skips the
// test where this process may not mount (not root, no mount namespace).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// A disk that fills up during a download (here a real 256 KiB tmpfs under
// a 1 MiB file) is reported once, not retried, naming the part, how much
// more the download needs and what is free; the part is kept for a resume.
func TestDiskFullMidDownloadIsNotRetriedAndSaysWhatIsNeeded(t *testing.T) {
	for _, parts := range []int{1, 2} {
		t.Run(map[int]string{1: "one stream", 2: "parallel parts"}[parts], func(t *testing.T) {
			data := randomData(1<<20, 31)
			fs := newFileServer(t, data)
			a := testModel(t, fs, data)
			disk := smallDisk(t, "256k")
			f := &Fetcher{CacheDir: disk, Parts: parts, PartThreshold: 1, Retries: 3, Backoff: 1}
			// The free-space check before the first byte sees no number (as
			// on a file system statfs cannot measure); later calls see the
			// real count.
			var calls atomic.Int32
			f.FreeSpace = func(dir string) (int64, error) {
				if calls.Add(1) == 1 {
					return -1, nil
				}
				return freeSpace(dir)
			}
			_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
			if err == nil {
				t.Fatal("a 1 MiB download fit on a 256 KiB disk")
			}
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("error does not wrap ENOSPC: %v", err)
			}
			dest := filepath.Join(disk, "models", "test-model.gguf")
			msg := err.Error()
			for _, want := range []string{"test-model", "the disk is full", "no space left on device", partPath(dest), "more in " + filepath.Dir(dest), "free now", "next fetch resumes"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%s", want, msg)
				}
			}
			// One request per part at most (the first failure may cancel the
			// other part before it asks): a retry would add more.
			if got := fs.requests.Load(); got < 1 || got > int64(parts) {
				t.Errorf("%d requests, want 1 to %d: a full disk must not be retried", got, parts)
			}
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Errorf("a file is in place after a failed download: %v", err)
			}
		})
	}
}
