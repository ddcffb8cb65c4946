//go:build unix

package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killHelperEnv makes the test binary a writer that stops halfway: it
// writes half of the new content through WriteFunc, says so on stdout and
// blocks until it is killed.
const killHelperEnv = "ATOMICFILE_KILL_HELPER_TARGET"

// killHelperEmptyEnv set makes that writer stop before it writes a byte.
const killHelperEmptyEnv = "ATOMICFILE_KILL_HELPER_EMPTY"

func TestMain(m *testing.M) {
	if target := os.Getenv(killHelperEnv); target != "" {
		_ = WriteFunc(target, 0o644, func(w io.Writer) error {
			if os.Getenv(killHelperEmptyEnv) != "" {
				// killed before it wrote a byte: its temporary file empty
			} else if _, err := w.Write(bytes.Repeat([]byte("new "), 1<<16)); err != nil {
				return err
			}
			os.Stdout.WriteString("halfway\n")
			for { // until SIGKILL (a bare select{} is a deadlock the runtime ends, freeing the lock)
				time.Sleep(time.Hour)
			}
		})
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// A real process killed with SIGKILL in the middle of a write leaves the
// target whole as it was: never a half-written file under its name.
func TestSIGKILLMidWriteLeavesTargetWhole(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	old := []byte(`{"old": true}` + "\n")
	if err := os.WriteFile(target, old, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := startHalfWriter(t, target)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if got, err := os.ReadFile(target); err != nil || !bytes.Equal(got, old) {
		t.Errorf("after the kill the target holds %d bytes (%v), want the old %d", len(got), err, len(old))
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "report.json" && !strings.HasPrefix(e.Name(), ".report.json.tmp-") {
			t.Errorf("unexpected file %s after the kill", e.Name())
		}
	}
}
