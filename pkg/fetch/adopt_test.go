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
