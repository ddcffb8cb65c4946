//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeBounded runs Write in a goroutine and fails the test, instead of
// hanging it, when Write has not returned within a generous bound (a
// broken build blocks in open(2) forever; a slow machine only takes
// longer than usual, far under the bound).
func writeBounded(t *testing.T, path string, data []byte) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Write(path, data, 0o644) }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("Write(%s) still blocked after a minute: it waits for a reader of the FIFO", path)
		return nil
	}
}

// A FIFO planted at an output path with nothing reading it is an error
// at once, naming what to do; it is left a FIFO, and nothing else is
// created beside it.
func TestWriteFIFOWithoutReaderFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	err := writeBounded(t, path, []byte("<x/>"))
	if err == nil || !strings.Contains(err.Error(), "named pipe (FIFO) that nothing is reading") {
		t.Fatalf("err = %v, want the no-reader refusal", err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st, err)
	}
	assertNoTemp(t, dir)
}

// openReader opens the reading end of fifo without waiting for a writer
// (O_NONBLOCK), so a write that follows finds its reader there; the file
// is closed with the test.
func openReader(t *testing.T, fifo string) *os.File {
	t.Helper()
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// With a reader, the content goes through the FIFO whole, more than a
// pipe's buffer of it (`--junit >(consumer)` names such a pipe).
func TestWriteFIFOWithReaderDelivers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := openReader(t, path)
	// a second writer held open: the reader sees no end of file before
	// Write's own open, whenever the goroutine runs
	hold, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("<x/>", 1<<16)
	done := make(chan error, 1)
	go func() { done <- Write(path, []byte(want), 0o644) }()
	b := make([]byte, len(want))
	if _, err := io.ReadFull(r, b); err != nil || string(b) != want {
		t.Errorf("the reader got %q… (%v), want %d bytes", b[:16], err, len(want))
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	hold.Close()
	if rest, _ := io.ReadAll(r); len(rest) != 0 {
		t.Errorf("%d bytes more than written", len(rest))
	}
}

// WriteEntry replaces what has the name, a link to a pipe outside
// (standing for a device such as /dev/sda) or a pipe itself, with the
// new regular file: nothing is written through it.
func TestWriteEntryNeverWritesThroughALinkOrPipe(t *testing.T) {
	dir, link, r := linkToPipeOutside(t, "index.html")
	pipe := filepath.Join(dir, "file1.html")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, pipe} {
		if err := WriteEntry(p, []byte("<html>"), 0o644); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s is not the new regular file: %v %v", p, st, err)
		}
		if b, _ := os.ReadFile(p); string(b) != "<html>" {
			t.Errorf("%s holds %q", p, b)
		}
	}
	buf := make([]byte, 64)
	if n, _ := r.Read(buf); n > 0 {
		t.Errorf("%q was written through the link into the pipe outside", buf[:n])
	}
	assertNoTemp(t, dir)
}

// Write to a path the operator named (kitsoki test --json report.json)
// that a checkout holds as a link to a pipe outside (standing for a
// device such as /dev/sda) replaces the link with the new regular file:
// nothing is written through it. A name under /dev (/dev/stdout, whose
// link leads to the process's own stream) is still written in place.
func TestWriteNeverWritesThroughAPlantedLinkToADevice(t *testing.T) {
	dir, link, r := linkToPipeOutside(t, "report.json")
	if err := writeBounded(t, link, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, _ := r.Read(buf); n > 0 {
		t.Errorf("%q was written through the link into the pipe outside", buf[:n])
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("report.json is not the new regular file: %v %v", st, err)
	}
	if b, _ := os.ReadFile(link); string(b) != "{}" {
		t.Errorf("report.json holds %q", b)
	}
	assertNoTemp(t, dir)
	if err := Write("/dev/null", []byte("x"), 0o644); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
}

// linkToPipeOutside makes name in a new directory a link to a pipe in
// another (standing for a device such as /dev/sda) that has a reader, so
// a write through the link would succeed rather than block; it returns
// the directory, the link and the reader.
func linkToPipeOutside(t *testing.T, name string) (dir, link string, r *os.File) {
	t.Helper()
	dir, outside := t.TempDir(), t.TempDir()
	fifo := filepath.Join(outside, "dev")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r = openReader(t, fifo)
	link = filepath.Join(dir, name)
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	return dir, link, r
}
