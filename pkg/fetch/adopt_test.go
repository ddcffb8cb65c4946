package fetch

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// upstreamRelease lays out a release directory as the existing engine
// leaves it in a shared cache: bin/llama-<sha12>/ (mode 0700) with the
// flattened files and SONAME links, no manifest and no archive; with
// shim, also its libstdc++.so.6.
func upstreamRelease(t *testing.T, f *Fetcher, a *Artifact, shim bool) string {
	t.Helper()
	dir, err := f.ReleaseDir(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "llama-server"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "libllama.so.0.0.9444"), []byte("fake libllama"), 0o644)
	os.Symlink("libllama.so.0.0.9444", filepath.Join(dir, "libllama.so.0"))
	if shim {
		os.WriteFile(filepath.Join(dir, "libstdc++.so.6"), []byte("upstream shim"), 0o600)
	}
	return dir
}

// A cache pre-warmed by the existing engine (an offline box, a shared
// KITSOKI_CACHE_DIR) is used as it is: no download, the same binary path,
// and the shim it installed counts as installed.
func TestReleaseExtractedByTheExistingEngineIsAdopted(t *testing.T) {
	for _, shim := range []bool{false, true} {
		if shim && runtime.GOOS != "linux" {
			continue
		}
		glibcxx := "GLIBCXX_3.4.33"
		if shim {
			glibcxx = "GLIBCXX_3.4.29"
		}
		rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), glibcxx, "GLIBC_2.39")
		f := rs.fetcher(t)
		a, _ := rs.pins.LlamaServer(runtime.GOOS, runtime.GOARCH)
		dir := upstreamRelease(t, f, a, shim)
		inst, err := rs.ensure(t, f)
		if err != nil {
			t.Fatal(err)
		}
		if n := rs.archive.requests.Load() + rs.shim.requests.Load(); n != 0 {
			t.Fatalf("shim=%v: %d downloads for a release the existing engine had extracted", shim, n)
		}
		if inst.Bin != filepath.Join(dir, "llama-server") || inst.Downloaded || inst.Shim != shim {
			t.Fatalf("shim=%v: %+v", shim, inst)
		}
		if !f.ReleaseCached(a) {
			t.Fatalf("shim=%v: not recorded after adoption", shim)
		}
		// --verify has only the pin of the archive to go by: it downloads
		// and extracts it again.
		if _, err := f.EnsureLlamaServer(ctxT(t), rs.pins, runtime.GOOS, runtime.GOARCH, EnsureOptions{Verify: true}); err != nil {
			t.Fatal(err)
		}
		if rs.archive.requests.Load() == 0 {
			t.Fatalf("shim=%v: --verify trusted an adopted release", shim)
		}
	}
}

// A directory of another shape (a subdirectory, a link leaving it) is not
// adopted: the archive is downloaded and replaces it.
func TestReleaseDirOfAnotherShapeIsReplaced(t *testing.T) {
	rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), "GLIBCXX_3.4.33", "GLIBC_2.39")
	f := rs.fetcher(t)
	a, _ := rs.pins.LlamaServer(runtime.GOOS, runtime.GOARCH)
	dir := upstreamRelease(t, f, a, false)
	os.Symlink("/etc/passwd", filepath.Join(dir, "libevil.so"))
	inst, err := rs.ensure(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if !inst.Downloaded || rs.archive.requests.Load() == 0 {
		t.Fatalf("a directory with a link outside it was adopted: %+v", inst)
	}
	if _, err := os.Lstat(filepath.Join(dir, "libevil.so")); !os.IsNotExist(err) {
		t.Fatalf("the replaced directory's link is still there: %v", err)
	}
}

// A cache whose lock cannot be taken (read-only: an image layer, another
// user's directory; here the lock path is a directory, which fails the
// same way for root) still serves what it holds when the existing engine
// would: weights without a record of ours that match their pin, and a
// release directory it extracted. Nothing is written there, and a file
// that does not match is still an error.
func TestReadOnlyCacheFilledByTheExistingEngine(t *testing.T) {
	t.Run("weights", func(t *testing.T) {
		data := randomData(8<<10, 60)
		fs := newFileServer(t, data)
		f := newTestFetcher(t)
		a := testModel(t, fs, data)
		dest, _ := f.Path(a)
		os.MkdirAll(dest+".lock", 0o755)
		os.WriteFile(dest, data, 0o600)
		res, err := f.Ensure(ctxT(t), a, EnsureOptions{})
		if err != nil || res.Path != dest || res.Downloaded {
			t.Fatalf("%+v %v", res, err)
		}
		wantTraffic(t, fs, 0, 0, "the weights were in the cache")
		if _, err := os.Stat(recordPath(dest)); !os.IsNotExist(err) {
			t.Fatalf("a record was written into a cache that could not be locked: %v", err)
		}
		os.WriteFile(dest, []byte("corrupt"), 0o600)
		if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil {
			t.Fatal("a corrupt file was accepted")
		}
	})
	t.Run("release", func(t *testing.T) {
		rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), "GLIBCXX_3.4.33", "GLIBC_2.39")
		f := rs.fetcher(t)
		a, _ := rs.pins.LlamaServer(runtime.GOOS, runtime.GOARCH)
		dir := upstreamRelease(t, f, a, false)
		os.MkdirAll(dir+".lock", 0o755)
		inst, err := rs.ensure(t, f)
		if err != nil || inst.Bin != filepath.Join(dir, "llama-server") || inst.Downloaded {
			t.Fatalf("%+v %v", inst, err)
		}
		if rs.archive.requests.Load() != 0 {
			t.Fatal("downloaded a release the read-only cache holds")
		}
		if _, err := os.Stat(manifestPath(dir)); !os.IsNotExist(err) {
			t.Fatalf("a manifest was written into a cache that could not be locked: %v", err)
		}
	})
}
