package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kitsoki/internal/testing/unwritable"
)

func TestWriteReplacesWholeAndSetsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "report.json")
	if err := Write(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("second"), 0o640); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "second" {
		t.Fatalf("read back %q, %v; want second", got, err)
	}
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(path)
		if st.Mode().Perm() != 0o640 {
			t.Fatalf("mode %v, want 0640", st.Mode().Perm())
		}
	}
	assertNoTemp(t, filepath.Join(dir, "sub"))
}

func TestWriteRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	err := Write(dir, []byte("x"), 0o644)
	if err == nil || err.Error() != "is a directory; name a file inside it" {
		t.Fatalf("err = %v", err)
	}
}

// A directory the user cannot write: a read-only mode, or as root (CI runs
// as root, where the mode does not stop a write) Linux's immutable attribute.
func TestWriteFailureLeavesTargetAndNoTemp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a directory the user cannot write (not on Windows)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unwritable.Dir(t, dir); err != nil {
		t.Skipf("needs a directory nobody can write: %v", err)
	}
	err := Write(path, []byte("new"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in "+dir+": ") || strings.Contains(err.Error(), ".tmp-") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("target changed to %q", got)
	}
}

// TestWriteUncreatableTemp fails the temporary file's creation even as
// root (CI runs as root, where a read-only mode does not stop a write).
func TestWriteUncreatableTemp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc, where no file can be created")
	}
	err := Write("/proc/self/kitsoki-report.json", []byte("x"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in /proc/self: ") {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteParentIsAFile(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(filepath.Join(blocker, "r.txt"), []byte("x"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot create its directory: ") {
		t.Fatalf("err = %v", err)
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

// A producer that fails leaves the old file and no temporary file, and its
// own error comes back unchanged (callers map it apart from disk errors).
func TestWriteFuncProducerError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.json")
	if err := Write(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("trace line 3 is corrupt")
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		if _, err := w.Write([]byte("half")); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("err = %v, want the producer's own", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("target changed to %q", got)
	}
	assertNoTemp(t, dir)
}

// Writers of one target at once all succeed, the last rename's bytes
// whole in it: one's sweep of dead writers' temporary files never takes
// another's that is created but not locked yet (it failed 3 runs in 20
// of eight writers).
func TestWriteRaceAllSucceed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	for i, err := range atOnce(8, func(i int) error { return Write(path, fmt.Appendf(nil, "writer %d", i), 0o644) }) {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got, _ := os.ReadFile(path); !strings.HasPrefix(string(got), "writer ") {
		t.Errorf("file holds %q", got)
	}
	assertNoTemp(t, dir)
}
