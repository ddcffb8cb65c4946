//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO where append_to_file or artifacts_dir would read the file it
// appends to is refused at once, naming it, instead of waiting for a
// writer that never comes (a story from a repository nobody vetted).
func TestAppendingToAFIFOIsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		h    Handler
		args map[string]any
		file string
	}{
		{"append_to_file", appendFileHandler{}, map[string]any{"thread": "arts/bug.md", "body": "x"}, "arts/bug.md"},
		{"artifacts_dir", artifactsHandler{getenv: noEnv}, map[string]any{"thread": "note", "body": "x", "artifacts_root": "arts"}, "arts/note.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			fifo := filepath.Join(wd, c.file)
			if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan string, 1)
			go func() {
				res, err := call(t, c.h, Env{WorkDir: wd, Now: fixedClock()}, c.args)
				if err != nil {
					res.Error = err.Error()
				}
				done <- res.Error
			}()
			select {
			case msg := <-done:
				if !strings.Contains(msg, "not a regular file") || !strings.Contains(msg, filepath.Base(c.file)) {
					t.Fatalf("error %q: want the FIFO refused by name", msg)
				}
			case <-time.After(time.Minute): // a hang, not a slow machine
				t.Fatal("the handler is still reading the FIFO")
			}
		})
	}
}

// A recording cassette whose file was swapped for a link to a pipe
// outside (standing for a device) is flushed as a new regular file in its
// place: nothing is written through the link.
func TestHTTPCassetteFlushNeverWritesThroughALink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	fifo := filepath.Join(outside, "dev")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a write through the link would succeed
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := filepath.Join(dir, "c.http.yaml")
	mustSymlink(t, fifo, path)
	c := &HTTPCassette{Path: path}
	c.add("GET", "http://127.0.0.1/x", &httpResponse{status: 200, body: "recorded"})
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, _ := r.Read(buf); n > 0 {
		t.Errorf("%q was written through the link into the pipe outside", buf[:n])
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the cassette is not the new regular file: %v %v", st, err)
	}
}

// A FIFO named as a media artifact's src_path is refused by name before
// it is opened: an open waits for a writer that never comes.
func TestArtifactsMediaFIFOSourceIsRefused(t *testing.T) {
	wd := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(wd, "clip.mp4"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan string, 1)
	go func() {
		res, err := call(t, artifactsHandler{getenv: noEnv}, Env{WorkDir: wd}, map[string]any{"thread": "demo", "src_path": "clip.mp4", "kind": "video"})
		if err != nil {
			res.Error = err.Error()
		}
		done <- res.Error
	}()
	select {
	case msg := <-done:
		if msg != `host.artifacts_dir: src_path "clip.mp4" is not a regular file` {
			t.Fatalf("error %q: want the FIFO refused by name", msg)
		}
	case <-time.After(time.Minute): // a hang, not a slow machine
		t.Fatal("the handler is still opening the FIFO")
	}
}

// An issues directory that is a FIFO is left out of local_tickets' search
// like any directory that cannot be listed: once its open waited for a
// writer that never comes.
func TestLocalTicketsFIFODirectoryIsSkipped(t *testing.T) {
	h, env, wd := ticketsEnv(t)
	epics := filepath.Join(wd, "issues", "epics")
	if err := os.RemoveAll(epics); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(epics, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan string, 1)
	go func() { done <- ids(t, mustOK(t, h, env, map[string]any{"op": "search"})) }()
	select {
	case got := <-done:
		if got != "T-1,F-2" {
			t.Fatalf("search: %s, want the tickets beside the FIFO", got)
		}
	case <-time.After(time.Minute): // a hang, not a slow machine
		t.Fatal("search is still opening the FIFO")
	}
}

// A media source swapped for a FIFO between OpenRegular's stat (a regular
// file then) and its open (a process beside the story swaps it) is opened
// without waiting and refused by the check of what was opened; a blocking
// open would wait for a writer that never comes.
func TestOpenRegularFIFOSwappedAfterStat(t *testing.T) {
	wd := t.TempDir()
	clip := filepath.Join(wd, "clip.mp4")
	if err := os.WriteFile(clip, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	fr, err := openFileRoot(wd, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	fr.opening = func(abs string) {
		if err := os.Remove(abs); err != nil {
			t.Error(err)
		}
		if err := syscall.Mkfifo(abs, 0o644); err != nil {
			t.Error(err)
		}
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, _, err := fr.OpenRegular(clip)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		if o.f != nil || o.err != nil {
			t.Fatalf("OpenRegular of the swapped FIFO: file %v, err %v; want it refused as not regular", o.f, o.err)
		}
	case <-time.After(time.Minute): // a hang, not a slow machine
		if w, err := os.OpenFile(clip, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the blocked open return
		}
		t.Fatal("OpenRegular is still opening the FIFO swapped in after its stat")
	}
}
