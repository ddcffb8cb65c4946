package fetch

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestOfflineServesTheCacheAndRefusesDownloads: with Offline a warm cache
// answers as usual, a cold one fails at once naming the file looked for,
// the cache directory and the command that warms it, and a cached file
// that fails its sha256 is removed and refused; the loopback server is
// never asked. KITSOKI_OFFLINE turns the same mode on for a Fetcher that
// does not set it (a story's managed local_llm).
func TestOfflineServesTheCacheAndRefusesDownloads(t *testing.T) {
	data := randomData(64<<10, 7)
	fs := newFileServer(t, data)
	a := testModel(t, fs, data)
	f := newTestFetcher(t)
	f.Offline = true

	_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil {
		t.Fatal("offline: a cold cache was served")
	}
	dest, _ := f.Path(a)
	for _, want := range []string{"test-model weights", "nothing verified is cached at " + dest, "offline mode", EnvOffline, EnvCacheDir + "=" + f.CacheDir, "kitsoki fetch-models test-model"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("cold offline error %q lacks %q", err, want)
		}
	}
	wantTraffic(t, fs, 0, 0, "offline mode must not reach the server")
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{Force: true}); err == nil || !strings.Contains(err.Error(), "exclude each other") {
		t.Fatalf("offline --force: %v", err)
	}

	f.Offline = false
	ensureOK(t, f, a) // warm the cache where the network is reached
	served := fs.requests.Load()
	f.Offline = true
	for _, opts := range []EnsureOptions{{}, {Verify: true}} {
		res, err := f.Ensure(ctxT(t), a, opts)
		if err != nil || res.Downloaded || res.Path != dest {
			t.Fatalf("offline, warm cache, %+v: %+v %v", opts, res, err)
		}
	}

	if err := os.WriteFile(dest, bytes.Repeat([]byte{'x'}, len(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "failed its sha256 check and was removed from "+dest) {
		t.Fatalf("offline, corrupt cache: %v", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatalf("the corrupt file stayed in the cache: %v", err)
	}
	if fs.requests.Load() != served {
		t.Fatal("offline mode reached the server for a corrupt cached file")
	}

	f.Offline = false
	t.Setenv(EnvOffline, "1")
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "offline mode") {
		t.Fatalf("%s=1 did not turn offline mode on: %v", EnvOffline, err)
	}
	t.Setenv(EnvOffline, "maybe")
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), EnvOffline+`="maybe"`) {
		t.Fatalf("a bad %s was not named: %v", EnvOffline, err)
	}
	if fs.requests.Load() != served {
		t.Fatal("offline mode reached the server")
	}
}
