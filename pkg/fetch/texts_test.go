package fetch

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The existing engine's failure texts (reference/fetch-sidecar.md §3, §7),
// kept word for word inside ours, which goes on to say what to do:
// "<id> weights: sha256 mismatch: got X want Y", "llama-server
// (<platform>): sha256 mismatch: …", "libstdc++ shim: sha256 mismatch: …",
// "download <url>: http <code>", "<id> weights: download pin not
// configured (managed mode unavailable until pins are set)".
func TestFailureTextsKeepTheExistingEngines(t *testing.T) {
	data := randomData(4<<10, 50)
	wrong := sum256([]byte("not the served bytes"))
	wantIn := func(t *testing.T, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v\nwant it to contain %q", err, want)
		}
	}
	t.Run("model sha256 mismatch", func(t *testing.T) {
		fs := newFileServer(t, data)
		a, _ := modelPins(t, fs, wrong, 0).Model("test-model")
		_, err := newTestFetcher(t).Ensure(ctxT(t), a, EnsureOptions{})
		wantIn(t, err, "test-model weights: sha256 mismatch: got "+sum256(data)+" want "+wrong)
	})
	t.Run("http status", func(t *testing.T) {
		fs := newFileServer(t, data)
		fs.status = 404
		_, err := newTestFetcher(t).Ensure(ctxT(t), testModel(t, fs, data), EnsureOptions{})
		wantIn(t, err, "download "+fs.url("test-model.gguf")+": http 404")
	})
	t.Run("unpinned model", func(t *testing.T) {
		p, err := LoadPins("")
		if err != nil {
			t.Fatal(err)
		}
		_, err = newTestFetcher(t).Ensure(ctxT(t), p.Models["bge-small-en-v1.5"], EnsureOptions{})
		wantIn(t, err, "bge-small-en-v1.5 weights: download pin not configured (managed mode unavailable until pins are set)")
	})
	t.Run("llama-server sha256 mismatch", func(t *testing.T) {
		fs := newFileServer(t, data)
		p, err := LoadPins(writeOverlay(t, fmt.Sprintf("llama_server:\n  test/x:\n    id: llama-test\n    url: %s\n    sha256: %s\n    format: tar.gz\n", fs.url("l.tar.gz"), wrong)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = newTestFetcher(t).EnsureLlamaServer(ctxT(t), p, "test", "x", EnsureOptions{})
		wantIn(t, err, "llama-server (test/x): sha256 mismatch: got "+sum256(data)+" want "+wrong)
	})
	t.Run("shim sha256 mismatch", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("the shim is installed on Linux hosts only")
		}
		rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), "GLIBCXX_3.4.29", "GLIBC_2.39")
		shim, _ := rs.pins.Shim(runtime.GOOS, runtime.GOARCH)
		got := shim.SHA256
		shim.SHA256 = wrong
		_, err := rs.ensure(t, rs.fetcher(t))
		wantIn(t, err, "libstdc++ shim: sha256 mismatch: got "+got+" want "+wrong)
	})
}

// A cache directory that cannot be resolved keeps the existing engine's
// "resolve user cache dir: <err>" and names the fix that works where the
// error shows: a story's managed local_llm has no --cache-dir flag, only
// KITSOKI_CACHE_DIR.
func TestCacheDirErrorNamesTheVariable(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv(EnvCacheDir, "")
	if runtime.GOOS != "linux" {
		t.Skip("os.UserCacheDir reads HOME and XDG_CACHE_HOME on Linux")
	}
	_, err := ResolveCacheDir("")
	if err == nil || !strings.HasPrefix(err.Error(), "resolve user cache dir: ") || !strings.Contains(err.Error(), "(set KITSOKI_CACHE_DIR (or --cache-dir of kitsoki fetch-") {
		t.Fatalf("err = %v", err)
	}
}
