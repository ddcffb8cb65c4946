package safefile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "app.yaml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{"device": "/dev/zero", "symlink to device": link, "directory": dir}
	if fifo := makeFIFO(t, dir); fifo != "" {
		cases["fifo"] = fifo
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			// A FIFO with no writer would block an ordinary open forever:
			// this returning at all is half the test.
			_, err := ReadFile(p, Story)
			if !errors.Is(err, errNotRegular) || !strings.Contains(err.Error(), p) || !(strings.Contains(err.Error(), "regular file") || strings.Contains(err.Error(), "is a directory")) {
				t.Fatalf("got %v", err)
			}
			if f, err := Open(p, Story); err == nil {
				f.Close()
				t.Fatal("Open accepted it")
			}
		})
	}
}

func TestReadFileCap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte("a"), 1024), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 1024); err != nil || len(b) != 1024 {
		t.Fatalf("at the cap: %d %v", len(b), err)
	}
	_, err := ReadFile(p, 1023)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1024 bytes") || !strings.Contains(err.Error(), "1023 bytes cap") {
		t.Fatalf("over the cap: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := ReadRootFile(root, "f", 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("root over cap: %v", err)
	}
	if b, err := ReadRootFile(root, "f", 2048); err != nil || len(b) != 1024 {
		t.Fatalf("root: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "z")); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadRootFile(root, "z", 10); err == nil {
			t.Fatal("root followed a symlink to a device")
		}
	}
}

// FuzzReadFile: any content at any cap comes back whole or is refused.
func FuzzReadFile(f *testing.F) {
	f.Add([]byte("app:\n  id: x\n"), int64(100))
	f.Add([]byte("abc"), int64(2))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		if limit < 0 {
			return
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p, limit)
		if int64(len(data)) <= limit {
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%v", err)
			}
		} else if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("over cap accepted: %v", err)
		}
	})
}

// The size readAll is given is only a hint (the file may have grown or
// shrunk since its stat): what is read is returned whole, and the cap is
// enforced on it, not on the hint.
func TestReadAllSizeIsAHint(t *testing.T) {
	data := bytes.Repeat([]byte("ab"), 700) // 1,400 bytes
	for _, hint := range []int64{-1, 0, 10, 1399, 1400, 1401, 5000} {
		b, err := readAll(bytes.NewReader(data), hint, "f", 2000, false)
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("hint %d: got %d bytes, %v; want all 1400", hint, len(b), err)
		}
		if _, err := readAll(bytes.NewReader(data), hint, "f", 1399, false); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("hint %d, cap 1399: err = %v, want ErrTooLarge", hint, err)
		}
	}
}

// countReader counts the reads made of it.
type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(b []byte) (int, error) { c.n++; return c.r.Read(b) }

// A regular file of the size its stat gave is read in one read: no second
// read to see its end.
func TestReadAllOneReadAtStatSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	data := bytes.Repeat([]byte("x"), 3000)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := &countReader{r: f}
	b, err := readAll(cr, 3000, p, Story, true)
	if err != nil || !bytes.Equal(b, data) || cr.n != 1 {
		t.Fatalf("%d bytes, %v, %d reads; want 3000 bytes in 1 read", len(b), err, cr.n)
	}
}

// A regular file that grew after its stat is read whole (and held to the
// cap), never cut at the stat's size.
func TestReadAllGrownFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte("a"), 100), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	w, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("b"), 50))
	w.Close()
	if b, err := readAll(f, fi.Size(), p, Story, true); err != nil || len(b) != 150 {
		t.Fatalf("got %d bytes, %v; want the 150 the file holds", len(b), err)
	}
	f.Seek(0, io.SeekStart)
	if _, err := readAll(f, fi.Size(), p, 120, true); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("grown past the cap: %v", err)
	}
}

// What is not known to be a regular file is read to its end even when a
// read stops at the size hint.
func TestReadAllShortReadsNotRegular(t *testing.T) {
	data := []byte("abcdef")
	b, err := readAll(iotest.OneByteReader(bytes.NewReader(data)), 1, "f", 100, false)
	if err != nil || !bytes.Equal(b, data) {
		t.Fatalf("got %q %v", b, err)
	}
}

// The errors read as those of a stat before the open: a missing file
// "stat ...", a socket (which cannot be opened) as not a regular file, an
// unreadable file the open's "permission denied".
func TestReadFileErrorsReadAsBefore(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, serr := os.Stat(missing)
	for _, read := range []func(string) error{
		func(p string) error { _, err := ReadFile(p, Story); return err },
		func(p string) error { f, err := Open(p, Story); f.Close(); return err },
	} {
		if err := read(missing); err == nil || err.Error() != serr.Error() {
			t.Errorf("missing: %v, want %v", err, serr)
		}
		if err := read(filepath.Join(dir, "missing", "x")); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "stat ") {
			t.Errorf("missing dir: %v", err)
		}
	}
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	if _, err := ReadRootFile(root, "missing", Story); err == nil || !strings.HasPrefix(err.Error(), "stat") {
		t.Errorf("root missing: %v", err)
	}
	if sock := makeSocket(t, dir); sock != "" {
		if _, err := ReadFile(sock, Story); !errors.Is(err, errNotRegular) || !strings.Contains(err.Error(), "a socket") {
			t.Errorf("socket: %v", err)
		}
	}
	if os.Geteuid() != 0 {
		p := filepath.Join(dir, "secret")
		os.WriteFile(p, []byte("x"), 0o000)
		if _, err := ReadFile(p, Story); err == nil || err.Error() != "open "+p+": permission denied" {
			t.Errorf("unreadable: %v", err)
		}
	}
}

// ReadAtMost: exactly limit bytes pass, limit+1 are refused with
// ErrTooLarge naming the limit, after reading no more than limit+1; a read
// error is the reader's.
func TestReadAtMost(t *testing.T) {
	const limit = 4 << 10
	data := bytes.Repeat([]byte{'x'}, limit+100)
	if b, err := ReadAtMost(bytes.NewReader(data[:limit]), limit); err != nil || len(b) != limit {
		t.Fatalf("exactly the limit: %d bytes, %v", len(b), err)
	}
	if b, err := ReadAtMost(bytes.NewReader(nil), limit); err != nil || len(b) != 0 {
		t.Fatalf("empty: %d bytes, %v", len(b), err)
	}
	r := bytes.NewReader(data)
	_, err := ReadAtMost(r, limit)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 4 KiB") {
		t.Fatalf("one byte over: %v, want ErrTooLarge naming 4 KiB", err)
	}
	if read := len(data) - r.Len(); read != limit+1 {
		t.Errorf("read %d bytes of an oversize stream, want %d", read, limit+1)
	}
	if _, err := ReadAtMost(iotest.ErrReader(io.ErrClosedPipe), limit); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("read error: %v", err)
	}
}
