package fetch

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEnsureDownloadsVerifiesAndWarmStartSkipsNetwork(t *testing.T) {
	data := randomData(300<<10, 1)
	fs := newFileServer(t, data)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	var mu sync.Mutex
	var phases []Phase
	var host string
	f.Progress = func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		phases = append(phases, p.Phase)
		if p.Phase == PhaseStart {
			host = p.Host
		}
	}
	res := ensureOK(t, f, a)
	if !res.Downloaded || res.Size != int64(len(data)) || res.SHA256 != a.SHA256 {
		t.Fatalf("result %+v", res)
	}
	if res.Path != filepath.Join(f.CacheDir, "models", "test-model.gguf") {
		t.Fatalf("path %s", res.Path)
	}
	wantContent(t, res.Path, data)
	if _, err := os.Stat(res.Path + ".part"); !os.IsNotExist(err) {
		t.Fatalf(".part left behind: %v", err)
	}
	mu.Lock()
	if len(phases) < 2 || phases[0] != PhaseStart || phases[len(phases)-1] != PhaseDone || !strings.HasPrefix(host, "127.0.0.1:") {
		t.Fatalf("phases %v host %q", phases, host)
	}
	mu.Unlock()

	before := fs.requests.Load()
	res2, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil || res2.Downloaded || fs.requests.Load() != before {
		t.Fatalf("warm start went to the network: %+v %v", res2, err)
	}
	if !f.Cached(a) {
		t.Fatal("Cached = false after download")
	}
	// --verify re-hashes without downloading.
	if res3, err := f.Ensure(ctxT(t), a, EnsureOptions{Verify: true}); err != nil || res3.Downloaded || fs.requests.Load() != before {
		t.Fatalf("verify: %+v %v", res3, err)
	}
	// A file changed behind our back is not trusted: its record no longer matches.
	if err := os.WriteFile(res.Path, bytes.Repeat([]byte{'x'}, len(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	res4, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil || !res4.Downloaded {
		t.Fatalf("corrupt file not replaced: %+v %v", res4, err)
	}
	wantContent(t, res.Path, data) // the corrupt content is not kept
	// --force downloads again.
	if res5, err := f.Ensure(ctxT(t), a, EnsureOptions{Force: true}); err != nil || !res5.Downloaded {
		t.Fatalf("force: %+v %v", res5, err)
	}
}

func TestSHAMismatchLeavesNothingAndNamesDigests(t *testing.T) {
	data := randomData(100<<10, 2)
	fs := newFileServer(t, data)
	wrong := sum256([]byte("something else"))
	a, err := modelPins(t, fs, wrong, 0).Model("test-model")
	if err != nil {
		t.Fatal(err)
	}
	f := newTestFetcher(t)
	_, err = f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil {
		t.Fatal("mismatch accepted")
	}
	for _, want := range []string{"test-model", "sha256 mismatch", "got " + sum256(data), "want " + wrong, "102400 bytes from " + fs.url("test-model.gguf")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(f.CacheDir, "models"))
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("left in cache: %s", e.Name())
		}
	}
}

// An empty answer is the commonest "digest mismatch" (the got digest is
// e3b0c442…, the sha256 of no bytes): the message says so.
func TestEmptyAnswerIsNamedInTheMismatch(t *testing.T) {
	fs := newFileServer(t, nil)
	a, err := modelPins(t, fs, sum256([]byte("weights")), 0).Model("test-model")
	if err != nil {
		t.Fatal(err)
	}
	_, err = newTestFetcher(t).Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil {
		t.Fatal("an empty answer was accepted")
	}
	for _, want := range []string{"got " + sum256(nil), "0 bytes from " + fs.url("test-model.gguf"), "the server sent an empty file"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestSizeMismatchFailsBeforeDownloading(t *testing.T) {
	data := randomData(100<<10, 3)
	fs := newFileServer(t, data)
	a, err := modelPins(t, fs, sum256(data), len(data)+7).Model("test-model")
	if err != nil {
		t.Fatal(err)
	}
	_, err = newTestFetcher(t).Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "size mismatch") {
		t.Fatalf("err = %v", err)
	}
	if fs.requests.Load() != 1 {
		t.Fatalf("size mismatch retried: %d requests", fs.requests.Load())
	}
}

func TestCutTransferResumesOnlyTheRest(t *testing.T) {
	data := randomData(1<<20, 4)
	fs := newFileServer(t, data)
	half := int64(len(data) / 2)
	fs.cut(half, 1)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	f.Retries = 1 // the first call gives up at the cut
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "partial download is kept") {
		t.Fatalf("first call: %v", err)
	}
	if fs.sent.Load() != half {
		t.Fatalf("server sent %d before the cut, want %d", fs.sent.Load(), half)
	}
	res := ensureOK(t, f, a)
	if res.Resumed != half {
		t.Fatalf("resumed %d bytes, want %d", res.Resumed, half)
	}
	if fs.sent.Load() != int64(len(data)) {
		t.Fatalf("server sent %d bytes in total, want exactly %d (only the rest after the cut)", fs.sent.Load(), len(data))
	}
	rs := fs.rangesSeen()
	if rs[len(rs)-1] != "bytes=524288-" {
		t.Fatalf("resume request ranges %q", rs)
	}
	wantContent(t, res.Path, data)
}

func TestCutTransferRetriedWithinOneCall(t *testing.T) {
	data := randomData(1<<20, 5)
	fs := newFileServer(t, data)
	fs.cut(100<<10, 3)
	a := testModel(t, fs, data)
	res := ensureOK(t, newTestFetcher(t), a)
	wantTraffic(t, fs, 4, int64(len(data)), "3 cut transfers, each resumed")
	if res.Size != int64(len(data)) {
		t.Fatalf("%+v", res)
	}
}

func TestNoRangeSupportRestartsCleanly(t *testing.T) {
	data := randomData(1<<20, 6)
	fs := newFileServer(t, data)
	fs.noRange = true
	half := int64(len(data) / 2)
	fs.cut(half, 1)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	f.Retries = 1
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("cut not reported")
	}
	res := ensureOK(t, f, a)
	if res.Resumed != 0 || fs.sent.Load() != half+int64(len(data)) {
		t.Fatalf("resumed %d, sent %d", res.Resumed, fs.sent.Load())
	}
	wantContent(t, res.Path, data)
}

func TestChangedFileBehindURLRestartsFromZero(t *testing.T) {
	old := randomData(1<<20, 7)
	fs := newFileServer(t, old)
	fs.cut(int64(len(old)/2), 1)
	fresh := randomData(1<<20, 8)
	a := testModel(t, fs, fresh) // the pin is for the new bytes
	f := newTestFetcher(t)
	f.Retries = 1
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("cut not reported")
	}
	fs.mu.Lock()
	fs.data, fs.etag = fresh, `"v2"`
	fs.mu.Unlock()
	res := ensureOK(t, f, a)
	if res.Resumed != 0 {
		t.Fatalf("resumed %d bytes of a changed file", res.Resumed)
	}
	wantContent(t, res.Path, fresh)
}

func TestHTTPErrors(t *testing.T) {
	data := randomData(1000, 9)
	for _, tc := range []struct {
		name     string
		status   int
		want     []string
		requests int64
	}{
		{"404 fails at once", http.StatusNotFound, []string{"http 404", "test-model"}, 1},
		{"500 retried then reported", http.StatusInternalServerError, []string{"http 500", "gave up after 3 attempts"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFileServer(t, data)
			fs.status = tc.status
			_, err := newTestFetcher(t).Ensure(ctxT(t), testModel(t, fs, data), EnsureOptions{})
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Fatalf("err = %v, want it to say %q", err, w)
				}
			}
			if got := fs.requests.Load(); got != tc.requests {
				t.Fatalf("%d requests, want %d", got, tc.requests)
			}
		})
	}
	t.Run("500 then recovery", func(t *testing.T) {
		fs := newFileServer(t, data)
		fs.status = http.StatusServiceUnavailable
		f := newTestFetcher(t)
		f.Retries = 50
		go func() {
			for fs.requests.Load() < 2 {
				time.Sleep(5 * time.Millisecond)
			}
			fs.mu.Lock()
			fs.status = 0
			fs.mu.Unlock()
		}()
		if _, err := f.Ensure(ctxT(t), testModel(t, fs, data), EnsureOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStalledServerIsRetried(t *testing.T) {
	data := randomData(512<<10, 10)
	fs := newFileServer(t, data)
	fs.stallAt = 64 << 10
	fs.stalls.Store(1)
	f := newTestFetcher(t)
	fired := stallOnSilence(f, fs)
	ensureOK(t, f, testModel(t, fs, data))
	wantTraffic(t, fs, 2, int64(len(data)), "the stalled request, then one resume")
	if fired.Load() != 1 {
		t.Fatalf("%d stalls fired, want 1", fired.Load())
	}
	if rs := fs.rangesSeen(); rs[1] != "bytes=65536-" {
		t.Fatalf("ranges %q", rs)
	}
}

func TestStalledServerAndContextCancel(t *testing.T) {
	data := randomData(512<<10, 11)
	fs := newFileServer(t, data)
	fs.stallAt = 128 << 10
	fs.stalls.Store(1)
	f := newTestFetcher(t)
	f.StallTimeout = time.Hour
	ctx, cancel := context.WithCancel(ctxT(t))
	f.Progress = func(p Progress) {
		if p.Done >= fs.stallAt {
			cancel() // the client holds every byte sent before the stall
		}
	}
	a := testModel(t, fs, data)
	_, err := f.Ensure(ctx, a, EnsureOptions{})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v", err)
	}
	dest, _ := f.Path(a)
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatal("cancelled download left a file in place")
	}
	if f.Cached(a) {
		t.Fatal("cancelled download looks cached")
	}
	// The part is resumable.
	f.Progress = nil
	res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil || res.Resumed == 0 {
		t.Fatalf("resume after cancel: %+v %v", res, err)
	}
}

func TestParallelPartsDownloadAndHashInOrder(t *testing.T) {
	data := randomData(4<<20+123, 12)
	fs := newFileServer(t, data)
	f := newTestFetcher(t)
	f.PartThreshold = 1 << 20
	f.Parts = 4
	var parts int
	f.Progress = func(p Progress) {
		if p.Phase == PhaseDone {
			parts = p.Parts
		}
	}
	res := ensureOK(t, f, testModel(t, fs, data))
	if parts != 4 || fs.requests.Load() != 4 || fs.sent.Load() != int64(len(data)) {
		t.Fatalf("parts %d, requests %d, sent %d", parts, fs.requests.Load(), fs.sent.Load())
	}
	for _, r := range fs.rangesSeen() {
		if !strings.HasPrefix(r, "bytes=") || strings.HasSuffix(r, "-") {
			t.Fatalf("part without a closed range: %q", r)
		}
	}
	wantContent(t, res.Path, data)
}

func TestParallelPartsRetryCutsWithinOneCall(t *testing.T) {
	data := randomData(4<<20, 13)
	fs := newFileServer(t, data)
	fs.cut(300<<10, 4)
	f := newTestFetcher(t)
	f.PartThreshold, f.Parts = 1<<20, 4
	res := ensureOK(t, f, testModel(t, fs, data))
	wantTraffic(t, fs, 8, int64(len(data)), "4 parts, each cut once")
	wantContent(t, res.Path, data)
}

func TestParallelPartsResumeAcrossCalls(t *testing.T) {
	data := randomData(4<<20, 13)
	fs := newFileServer(t, data)
	fs.rate.Store(8 << 20) // slow enough that every part is under way when the cut comes
	fs.cut(300<<10, 1)
	f := newTestFetcher(t)
	f.PartThreshold, f.Parts, f.Retries = 1<<20, 4, 1
	a := testModel(t, fs, data)
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("cut not reported")
	}
	fs.quiesce(t)
	sentBefore := fs.sent.Load()
	fs.rate.Store(0)
	res := ensureOK(t, f, a)
	second := fs.sent.Load() - sentBefore
	if res.Resumed < 300<<10 || second != int64(len(data))-res.Resumed {
		t.Fatalf("resumed %d bytes, second call fetched %d of %d", res.Resumed, second, len(data))
	}
	wantContent(t, res.Path, data)
}

func TestParallelFallsBackWithoutRange(t *testing.T) {
	data := randomData(2<<20, 14)
	fs := newFileServer(t, data)
	fs.noRange = true
	f := newTestFetcher(t)
	f.PartThreshold, f.Parts = 1<<20, 4
	res := ensureOK(t, f, testModel(t, fs, data))
	wantContent(t, res.Path, data)
}

func TestMirrorRewritesHost(t *testing.T) {
	data := randomData(10<<10, 15)
	fs := newFileServer(t, data)
	var paths []string
	var mu sync.Mutex
	inner := fs.srv.Config.Handler
	fs.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		inner.ServeHTTP(w, r)
	})
	p, err := LoadPins(writeOverlay(t, `models:
  m:
    id: m
    url: https://huggingface.example/org/repo/resolve/main/m.gguf?download=1
    sha256: `+sum256(data)+`
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")
	f := newTestFetcher(t)
	f.Mirror = fs.srv.URL + "/mirror"
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(paths) != 1 || paths[0] != "/mirror/huggingface.example/org/repo/resolve/main/m.gguf" {
		t.Fatalf("paths %q", paths)
	}
	if _, err := MirrorURL("https://x/y", "ftp://nope"); err == nil {
		t.Fatal("ftp mirror accepted")
	}
}

func TestUnpinnedArtifactRefused(t *testing.T) {
	p, err := LoadPins("")
	if err != nil {
		t.Fatal(err)
	}
	a := p.Models["bge-small-en-v1.5"]
	_, err = newTestFetcher(t).Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "endpoint: mode") {
		t.Fatalf("err = %v", err)
	}
}

// A partial download whose kept bytes were changed between runs (a disk
// error, a tool that touched the cache) fails the sha256 check once
// resumed: the fetch then downloads the whole file again instead of
// blaming the pin, and keeps nothing of the bad part.
func TestTamperedPartIsDownloadedAgainFromZero(t *testing.T) {
	data := randomData(1<<20, 21)
	fs := newFileServer(t, data)
	half := int64(len(data) / 2)
	fs.cut(half, 1)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	f.Retries = 1 // the first call gives up at the cut
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "partial download is kept") {
		t.Fatalf("first call: %v", err)
	}
	dest, _ := f.Path(a)
	part, err := os.OpenFile(dest+".part", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.WriteAt([]byte{data[100] ^ 0xff}, 100); err != nil {
		t.Fatal(err)
	}
	part.Close()
	res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil {
		t.Fatalf("resumed over a tampered part: %v", err)
	}
	if res.Resumed != 0 {
		t.Fatalf("the result counts %d resumed bytes of a part that was thrown away", res.Resumed)
	}
	wantContent(t, res.Path, data)
}
