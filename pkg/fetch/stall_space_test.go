package fetch

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hangingFront serves fs, except that the requests hang picks hang
// without sending a byte (no headers) until the client gives up.
func hangingFront(t *testing.T, fs *fileServer, hang func(n int32) bool) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang(n.Add(1)) {
			fs.hangs.Add(1)
			select {
			case <-r.Context().Done():
			case <-fs.release:
			}
			return
		}
		fs.serve(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// A server that sends nothing (not even headers) is a stall: detected
// after the stall timeout, retried once, then given up on at once (not
// after every retry's backoff); the next fetch resumes the part. The
// stalls fire when the server has gone silent (stallOnSilence), never on a
// slow but live transfer.
func TestStalledDownloadGivesUpAndResumes(t *testing.T) {
	data := randomData(512<<10, 31)
	fs := newFileServer(t, data)
	fs.stallAt = 64 << 10 // request 1: 64 KiB, then silence
	fs.stalls.Store(1)
	var hanging atomic.Bool
	hanging.Store(true)
	front, requests := hangingFront(t, fs, func(n int32) bool { return n > 1 && hanging.Load() })
	f := newTestFetcher(t)
	f.Retries = 6
	f.StallTimeout = 50 * time.Millisecond // named in the message; the stalls are fired by the test
	fired := stallOnSilence(f, fs)
	a := testModel(t, fs, data)
	a.URL = front.URL + "/m.gguf"
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if !errors.Is(err, errStalled) || !strings.Contains(err.Error(), "2 requests in a row received no byte for 50ms each") || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("err = %v", err)
	}
	if got, stalls := requests.Load(), fired.Load(); got != 2 || stalls != 2 {
		t.Fatalf("%d requests and %d stalls, want 2 of each (one that stalled mid-body, one that sent nothing)", got, stalls)
	}
	hanging.Store(false)
	res := ensureOK(t, f, a)
	if res.Resumed != 64<<10 {
		t.Fatalf("resumed %d bytes, want %d", res.Resumed, 64<<10)
	}
}

// The free space is checked before the first byte, counting what a kept
// part already holds. FreeSpace is a stand-in for a full disk (one cannot
// be made without privileges); the real statfs is exercised by every other
// download.
func TestDownloadRefusedWithoutFreeSpace(t *testing.T) {
	data := randomData(256<<10, 32)
	fs := newFileServer(t, data)
	f := newTestFetcher(t)
	f.FreeSpace = func(string) (int64, error) { return 1000, nil }
	a := testModel(t, fs, data)
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "needs 262.1 kB more free space") || !strings.Contains(err.Error(), "only 1.0 kB is free") {
		t.Fatalf("err = %v", err)
	}
	if fs.requests.Load() != 0 {
		t.Fatal("a request was made before the space check")
	}
	// Keep a part of 64 KiB, then the check asks only for the rest.
	fs.cut(64<<10, 100)
	f.FreeSpace = nil
	f.Retries = 1
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("cut download succeeded")
	}
	fs.cuts.Store(0)
	rest := int64(len(data) - 64<<10)
	f.FreeSpace = func(string) (int64, error) { return rest - 1, nil }
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "already downloaded and kept") {
		t.Fatalf("err = %v", err)
	}
	f.FreeSpace = func(string) (int64, error) { return rest, nil }
	res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil || res.Resumed != 64<<10 {
		t.Fatalf("%+v %v", res, err)
	}
}

// A partial download from a server that cannot resume is deleted, not
// left to fill the disk.
func TestUnresumablePartIsDeleted(t *testing.T) {
	data := randomData(256<<10, 33)
	fs := newFileServer(t, data)
	fs.noRange = true
	fs.cut(64<<10, 1)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fs.requests.Load() >= 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fs.serve(w, r)
	}))
	t.Cleanup(front.Close)
	f := newTestFetcher(t)
	f.Retries = 2
	a := testModel(t, fs, data)
	a.URL = front.URL + "/m.gguf"
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "nothing was kept") {
		t.Fatalf("err = %v", err)
	}
	dest, _ := f.Path(a)
	for _, p := range []string{partPath(dest), statePath(dest), dest} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind", p)
		}
	}
}

// A stall timer that fires just as the response headers arrive has
// cancelled the request: it is reported as a stall, not as the "context
// canceled" the body read would then return.
func TestStallAsHeadersArriveIsAStall(t *testing.T) {
	data := randomData(256<<10, 34)
	fs := newFileServer(t, data)
	f := newTestFetcher(t)
	f.Retries = 1
	sw := newStallSwitch()
	sw.fireOnStop = true
	f.afterFunc = sw.afterFunc
	a := testModel(t, fs, data)
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if !errors.Is(err, errStalled) {
		t.Fatalf("err = %v, want a stall", err)
	}
	fs.quiesce(t)
	ensureOK(t, f, a)
}
