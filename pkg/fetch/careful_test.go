package fetch

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForceKeepsVerifiedFileUntilReplacementVerifies: an interrupted
// --force leaves the old verified file (and its record) in place, and a
// completed one replaces it.
func TestForceKeepsVerifiedFileUntilReplacementVerifies(t *testing.T) {
	data := randomData(512<<10, 21)
	fs := newFileServer(t, data)
	f := newTestFetcher(t)
	a := testModel(t, fs, data)
	res := ensureOK(t, f, a)
	fs.stallAt = 128 << 10
	fs.stalls.Store(1)
	f.StallTimeout = time.Hour
	ctx, cancel := context.WithCancel(ctxT(t))
	f.Progress = func(p Progress) {
		if p.Phase == PhaseDownload && p.Done >= fs.stallAt {
			cancel()
		}
	}
	if _, err := f.Ensure(ctx, a, EnsureOptions{Force: true}); err == nil {
		t.Fatal("interrupted --force reported success")
	}
	if got, err := os.ReadFile(res.Path); err != nil || !bytes.Equal(got, data) || !f.Cached(a) {
		t.Fatalf("interrupted --force lost the verified file: %v, cached %v", err, f.Cached(a))
	}
	f.Progress = nil
	before := fs.sent.Load()
	res2, err := f.Ensure(ctxT(t), a, EnsureOptions{Force: true})
	if err != nil || !res2.Downloaded || res2.Resumed != 0 || fs.sent.Load()-before != int64(len(data)) {
		t.Fatalf("--force: %+v %v (sent %d)", res2, err, fs.sent.Load()-before)
	}
	if !f.Cached(a) {
		t.Fatal("replaced file not recorded")
	}
}

// TestFailedStartLeavesNoPart: a 404 (and a refused connection) on a
// download planned in parallel parts leaves neither a sparse .part nor
// its state.
func TestFailedStartLeavesNoPart(t *testing.T) {
	data := randomData(2<<20, 22)
	fs := newFileServer(t, data)
	fs.status = http.StatusNotFound
	f := newTestFetcher(t)
	f.PartThreshold, f.Parts = 1<<20, 4
	a := testModel(t, fs, data)
	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "http 404") || !strings.Contains(err.Error(), "nothing was downloaded") {
		t.Fatalf("err = %v", err)
	}
	dest, _ := f.Path(a)
	for _, p := range []string{partPath(dest), statePath(dest), dest + ".lock"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind after a 404", filepath.Base(p))
		}
	}
	if _, ok := f.PartialBytes(a); ok {
		t.Error("PartialBytes reports a partial download after a 404")
	}

	fs.srv.Close() // connection refused from now on
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("refused connection reported success")
	}
	if _, err := os.Stat(partPath(dest)); !os.IsNotExist(err) {
		t.Error(".part left behind after a refused connection")
	}
}

// TestPartialBytesCountsWhatIsReallyThere: an interrupted parallel
// download has a .part of the full length; PartialBytes reports the bytes
// the parts really wrote.
func TestPartialBytesCountsWhatIsReallyThere(t *testing.T) {
	data := randomData(4<<20, 23)
	fs := newFileServer(t, data)
	fs.rate.Store(8 << 20)
	fs.cut(100<<10, 1)
	f := newTestFetcher(t)
	f.PartThreshold, f.Parts, f.Retries = 1<<20, 4, 1
	a := testModel(t, fs, data)
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
		t.Fatal("cut not reported")
	}
	fs.quiesce(t)
	dest, _ := f.Path(a)
	st, err := os.Stat(partPath(dest))
	if err != nil || st.Size() != int64(len(data)) {
		t.Fatalf("expected a full-length sparse .part: %v", err)
	}
	n, ok := f.PartialBytes(a)
	if !ok || n <= 0 || n >= int64(len(data)) {
		t.Fatalf("PartialBytes = %d, %v (file length %d)", n, ok, len(data))
	}
	// What the next call reuses is exactly that.
	fs.rate.Store(0)
	res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err != nil || res.Resumed != n {
		t.Fatalf("resumed %d, PartialBytes said %d: %v", res.Resumed, n, err)
	}
}

// TestVerifyReportsHashingAndMismatch: --verify on a corrupted cached file
// reports the hashing step and the mismatch before downloading again.
func TestVerifyReportsHashingAndMismatch(t *testing.T) {
	data := randomData(256<<10, 24)
	fs := newFileServer(t, data)
	f := newTestFetcher(t)
	a := testModel(t, fs, data)
	res := ensureOK(t, f, a)
	var phases []Phase
	f.Progress = func(p Progress) {
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
	}
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{Verify: true}); err != nil {
		t.Fatal(err)
	}
	if got := phasesText(phases); got != "verify" {
		t.Fatalf("intact file: phases %s", got)
	}
	corrupt := append([]byte(nil), data...)
	corrupt[100] ^= 0xff
	os.WriteFile(res.Path, corrupt, 0o644)
	phases = nil
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{Verify: true}); err != nil {
		t.Fatal(err)
	}
	if got := phasesText(phases); !strings.HasPrefix(got, "verify mismatch start") || !strings.HasSuffix(got, "done") {
		t.Fatalf("corrupt file: phases %s", got)
	}
	if got, _ := os.ReadFile(res.Path); !bytes.Equal(got, data) {
		t.Fatal("not downloaded again")
	}
}

func phasesText(ps []Phase) string {
	var s []string
	for _, p := range ps {
		s = append(s, string(p))
	}
	return strings.Join(s, " ")
}

// TestLockFilesAreRemovedAndStillExclude: no .lock stays after a fetch,
// and concurrent callers still download once.
func TestLockFilesAreRemovedAndStillExclude(t *testing.T) {
	data := randomData(1<<20, 25)
	fs := newFileServer(t, data)
	fs.rate.Store(16 << 20)
	dir := t.TempDir()
	a := testModel(t, fs, data)
	var wg sync.WaitGroup
	var downloads atomic.Int32
	for range 4 {
		wg.Go(func() {
			f := newTestFetcher(t)
			f.CacheDir = dir
			res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
			if err != nil {
				t.Error(err)
			}
			if res.Downloaded {
				downloads.Add(1)
			}
		})
	}
	wg.Wait()
	if downloads.Load() != 1 || fs.sent.Load() != int64(len(data)) {
		t.Fatalf("%d downloads, %d bytes sent", downloads.Load(), fs.sent.Load())
	}
	locks, _ := filepath.Glob(filepath.Join(dir, "*", "*.lock"))
	if len(locks) > 0 {
		t.Fatalf("lock files left: %v", locks)
	}
}

// TestLockHolderRemovingFileDoesNotAdmitTwo: a waiter that opened the lock
// file before its holder removed it must not run beside a newcomer that
// created the next one.
func TestLockHolderRemovingFileDoesNotAdmitTwo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	first, err := lockFile(ctxT(t), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var inside atomic.Int32
	var overlap atomic.Bool
	waiting := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var once sync.Once
			l, err := lockFile(ctxT(t), path, func() { once.Do(func() { waiting <- struct{}{} }) })
			if err != nil {
				t.Error(err)
				return
			}
			if inside.Add(1) > 1 {
				overlap.Store(true)
			}
			time.Sleep(time.Millisecond) // widen the window an overlap would need
			inside.Add(-1)
			l.release()
		})
	}
	for range 8 {
		<-waiting
	}
	first.release()
	wg.Wait()
	if overlap.Load() {
		t.Fatal("two holders at once")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("lock file left")
	}
}

// TestWarmStartBuildsNoHTTPClient: the lazy client builds its transport
// only when a request is made.
func TestWarmStartBuildsNoHTTPClient(t *testing.T) {
	data := randomData(64<<10, 26)
	fs := newFileServer(t, data)
	var builds atomic.Int32
	f := newTestFetcher(t)
	f.HTTPClient = lazyClient(func() (*http.Client, error) { builds.Add(1); return &http.Client{}, nil })
	a := testModel(t, fs, data)
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err != nil || builds.Load() != 1 {
		t.Fatalf("cold: %v, %d builds", err, builds.Load())
	}
	f.HTTPClient = lazyClient(func() (*http.Client, error) { builds.Add(1); return &http.Client{}, nil })
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err != nil || builds.Load() != 1 {
		t.Fatalf("warm: %v, %d builds", err, builds.Load())
	}
}

func TestCheckTLSEnv(t *testing.T) {
	t.Setenv("SSL_CERT_FILE", filepath.Join(t.TempDir(), "missing.pem"))
	if err := CheckTLSEnv(); err == nil || !strings.Contains(err.Error(), "SSL_CERT_FILE") {
		t.Fatalf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("not pem"), 0o644)
	t.Setenv("SSL_CERT_FILE", bad)
	if err := CheckTLSEnv(); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("bad file: %v", err)
	}
	t.Setenv("SSL_CERT_FILE", "")
	if err := CheckTLSEnv(); err != nil {
		t.Fatal(err)
	}
}

// TestRetryDelayJitter: delays spread over [d/2, 3d/2) around the doubled
// base, capped, and are not all the same.
func TestRetryDelayJitter(t *testing.T) {
	if jitter(time.Second, 0) != 500*time.Millisecond || jitter(time.Second, 0.999999) >= 1500*time.Millisecond {
		t.Fatal("jitter bounds")
	}
	seen := map[time.Duration]bool{}
	for range 50 {
		d := retryDelay(100*time.Millisecond, 3) // base 400ms
		if d < 200*time.Millisecond || d >= 600*time.Millisecond {
			t.Fatalf("delay %s outside [200ms, 600ms)", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Fatal("every retry delay is the same: no jitter")
	}
	if d := retryDelay(time.Second, 30); d < maxBackoff/2 || d >= maxBackoff*3/2 {
		t.Fatalf("capped delay %s", d)
	}
}
