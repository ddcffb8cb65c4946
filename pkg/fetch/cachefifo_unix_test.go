//go:build unix

package fetch

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// A named pipe where a partial download goes is refused at once, not
// written into.
func TestDownloadRefusesAPipeInTheCache(t *testing.T) {
	f, a, dest := interruptedDownload(t, 4)
	os.Remove(dest + ".part")
	if err := syscall.Mkfifo(dest+".part", 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v, want a refusal of the pipe", err)
	}
}
