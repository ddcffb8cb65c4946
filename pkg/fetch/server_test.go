package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fileServer is a real loopback HTTP server for one artifact. It counts
// the body bytes it sends and can misbehave on purpose.
type fileServer struct {
	mu       sync.Mutex
	data     []byte
	etag     string
	noRange  bool
	status   int           // answer every request with this status when non-zero
	cutAfter int64         // abort the connection after this many body bytes...
	cuts     atomic.Int32  // ...this many times
	stallAt  int64         // stop sending after this many bytes and hang...
	stalls   atomic.Int32  // ...this many times
	holdAt   int64         // pause each response after this many bytes...
	hold     chan struct{} // ...until the test closes hold (nil: never)
	rate     atomic.Int64  // bytes per second per connection; 0 = unlimited
	active   atomic.Int32  // handlers running
	hangs    atomic.Int32  // handlers that went silent (stallAt), ever
	release  chan struct{} // closed by the test to end hanging handlers

	sent     atomic.Int64
	requests atomic.Int64
	ranges   []string
	srv      *httptest.Server
}

func newFileServer(t testing.TB, data []byte) *fileServer {
	fs := &fileServer{data: data, etag: `"v1"`, release: make(chan struct{})}
	fs.srv = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(func() {
		close(fs.release)
		fs.srv.Close()
	})
	return fs
}

func (fs *fileServer) url(name string) string { return fs.srv.URL + "/" + name }

func (fs *fileServer) rangesSeen() []string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]string(nil), fs.ranges...)
}

func (fs *fileServer) serve(w http.ResponseWriter, r *http.Request) {
	fs.requests.Add(1)
	fs.active.Add(1)
	defer fs.active.Add(-1)
	fs.mu.Lock()
	fs.ranges = append(fs.ranges, r.Header.Get("Range"))
	data, etag, noRange, status := fs.data, fs.etag, fs.noRange, fs.status
	fs.mu.Unlock()
	if status != 0 {
		http.Error(w, http.StatusText(status), status)
		return
	}
	start, end := int64(0), int64(len(data))
	code := http.StatusOK
	if !noRange {
		w.Header().Set("Accept-Ranges", "bytes")
		w.Header().Set("ETag", etag)
		rng := r.Header.Get("Range")
		if ir := r.Header.Get("If-Range"); ir != "" && ir != etag {
			rng = ""
		}
		if rng != "" {
			a, b, _ := strings.Cut(strings.TrimPrefix(rng, "bytes="), "-")
			s, _ := strconv.ParseInt(a, 10, 64)
			e := int64(len(data)) - 1
			if b != "" {
				e, _ = strconv.ParseInt(b, 10, 64)
			}
			if s >= int64(len(data)) {
				w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", len(data)))
				w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
				return
			}
			if e >= int64(len(data)) {
				e = int64(len(data)) - 1
			}
			start, end, code = s, e+1, http.StatusPartialContent
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", s, e, len(data)))
		}
	}
	w.Header().Set("Content-Length", strconv.FormatInt(end-start, 10))
	w.WriteHeader(code)
	body := data[start:end]
	var sentHere int64
	chunk := int64(32 << 10)
	began := time.Now()
	held := false
	for len(body) > 0 {
		n := min(chunk, int64(len(body)))
		// sendTo sends the body up to offset at (of this response) and
		// flushes it.
		sendTo := func(at int64) {
			if n := at - sentHere; n > 0 {
				w.Write(body[:n])
				fs.sent.Add(n)
			}
			w.(http.Flusher).Flush()
		}
		if fs.cutAfter > 0 && sentHere+n > fs.cutAfter && take(&fs.cuts) {
			sendTo(fs.cutAfter)
			panic(http.ErrAbortHandler)
		}
		if fs.stallAt > 0 && sentHere+n > fs.stallAt && take(&fs.stalls) {
			sendTo(fs.stallAt)
			fs.hangs.Add(1)
			select {
			case <-r.Context().Done():
			case <-fs.release:
			}
			return
		}
		if fs.hold != nil && !held && sentHere+n > fs.holdAt {
			sendTo(fs.holdAt)
			body, sentHere, held = body[fs.holdAt-sentHere:], fs.holdAt, true
			select {
			case <-fs.hold:
				continue
			case <-r.Context().Done():
				return
			}
		}
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		fs.sent.Add(n)
		sentHere += n
		body = body[n:]
		if rate := fs.rate.Load(); rate > 0 {
			want := time.Duration(float64(sentHere) / float64(rate) * float64(time.Second))
			if d := want - time.Since(began); d > 0 {
				time.Sleep(d)
			}
		}
	}
}

// take decrements n if it is positive and reports whether it did. Two
// handlers at the same offset must not both take the last one: a load
// then a later decrement, with a flush to a slow reader in between, let a
// loaded machine cut one request more than the test asked for.
func take(n *atomic.Int32) bool {
	for {
		c := n.Load()
		if c <= 0 {
			return false
		}
		if n.CompareAndSwap(c, c-1) {
			return true
		}
	}
}

// cut makes the server abort the connection after n body bytes, times
// times.
func (fs *fileServer) cut(n int64, times int32) {
	fs.cutAfter = n
	fs.cuts.Store(times)
}

// ensureOK runs f.Ensure for a, failing the test on an error.
func ensureOK(t testing.TB, f *Fetcher, a *Artifact) Result {
	t.Helper()
	res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// wantTraffic fails the test unless the server answered requests requests
// and sent sent bytes in all; why says what that count shows.
func wantTraffic(t testing.TB, fs *fileServer, requests, sent int64, why string) {
	t.Helper()
	if r, s := fs.requests.Load(), fs.sent.Load(); r != requests || s != sent {
		t.Fatalf("server sent %d bytes in %d requests; want %d in %d: %s", s, r, sent, requests, why)
	}
}

// wantContent fails the test unless the file at path holds data.
func wantContent(t testing.TB, path string, data []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("%s: the content differs from what was served", path)
	}
}

func randomData(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

func sum256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writeOverlay writes a pins overlay file and returns its path.
func writeOverlay(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pins.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// modelPins returns pins with one model "test-model" served by fs.
func modelPins(t testing.TB, fs *fileServer, sum string, size int) *Pins {
	t.Helper()
	p, err := LoadPins(writeOverlay(t, fmt.Sprintf(`models:
  test-model:
    id: test-model
    url: %s
    sha256: %s
    size: %d
`, fs.url("test-model.gguf"), sum, size)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func testModel(t testing.TB, fs *fileServer, data []byte) *Artifact {
	t.Helper()
	a, err := modelPins(t, fs, sum256(data), len(data)).Model("test-model")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func newTestFetcher(t testing.TB) *Fetcher {
	return &Fetcher{CacheDir: t.TempDir(), Mirror: "", Backoff: 10 * time.Millisecond, Retries: 3, ProgressInterval: 10 * time.Millisecond, HTTPClient: &http.Client{}}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// quiesce waits until no handler is running (cancelled requests included);
// the deadline is only a hang guard, as long as ctxT's.
func (fs *fileServer) quiesce(t testing.TB) {
	deadline := time.Now().Add(60 * time.Second)
	for fs.active.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("server handlers still running")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// newTLSFileServer serves fs's handler over TLS with httptest's own CA.
func newTLSFileServer(t testing.TB, fs *fileServer) *httptest.Server {
	srv := httptest.NewTLSServer(http.HandlerFunc(fs.serve))
	t.Cleanup(srv.Close)
	return srv
}
