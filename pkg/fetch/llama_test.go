package fetch

import (
	"archive/tar"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// releaseServer serves a llama-like release archive and a shim archive.
type releaseServer struct {
	archive, shim *fileServer
	pins          *Pins
	probe         *HostProbe
}

func newReleaseServer(t *testing.T, entries []tarEntry, glibcxx, glibc string) *releaseServer {
	t.Helper()
	arch := gz(t, buildTar(t, entries))
	shim := gz(t, buildTar(t, []tarEntry{
		{name: "info/index.json", typ: tar.TypeReg, body: "{}"},
		{name: "lib/libstdc++.so.6.0.30", typ: tar.TypeReg, body: "shim GLIBCXX_3.4.30"},
	}))
	rs := &releaseServer{archive: newFileServer(t, arch), shim: newFileServer(t, shim)}
	plat := runtime.GOOS + "/" + runtime.GOARCH
	overlay := writeOverlay(t, fmt.Sprintf(`llama_server:
  %s:
    id: llama-server-test
    release: b9444
    url: %s
    sha256: %s
    size: %d
    format: tar.gz
    members: [llama-server]
    requires:
      glibc: "2.34"
      glibcxx_minor: 30
shims:
  %s:
    id: libstdcxx-test
    url: %s
    sha256: %s
    format: tar.gz
    extract:
      lib/libstdc++.so.6.0.30: libstdc++.so.6
`, plat, rs.archive.url("llama.tar.gz"), sum256(arch), len(arch), plat, rs.shim.url("shim.tar.gz"), sum256(shim)))
	p, err := LoadPins(overlay)
	if err != nil {
		t.Fatal(err)
	}
	rs.pins = p
	rs.probe = &HostProbe{
		LibstdcxxPaths: []string{fixture(t, "libstdc++.so.6", glibcxx)},
		LibcPaths:      []string{fixture(t, "libc.so.6", glibc)},
	}
	return rs
}

// fetcher is a test Fetcher whose host probe reports rs's libraries.
func (rs *releaseServer) fetcher(t *testing.T) *Fetcher {
	f := newTestFetcher(t)
	f.Probe = rs.probe
	return f
}

// ensure installs rs's llama-server for this host's platform through f.
func (rs *releaseServer) ensure(t *testing.T, f *Fetcher) (ServerInstall, error) {
	return f.EnsureLlamaServer(ctxT(t), rs.pins, runtime.GOOS, runtime.GOARCH, EnsureOptions{})
}

func TestEnsureLlamaServerExtractsAndReuses(t *testing.T) {
	rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), "GLIBCXX_3.4.33", "GLIBC_2.39")
	f := rs.fetcher(t)
	inst, err := rs.ensure(t, f)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := rs.pins.LlamaServer(runtime.GOOS, runtime.GOARCH)
	wantDir := filepath.Join(f.CacheDir, "bin", "llama-"+a.SHA256[:12])
	if inst.LibDir != wantDir || inst.Bin != filepath.Join(wantDir, "llama-server") || !inst.Downloaded || inst.Shim {
		t.Fatalf("%+v", inst)
	}
	st, err := os.Stat(inst.Bin)
	if err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("binary %v %v", st, err)
	}
	if dst, _ := os.Stat(inst.LibDir); dst.Mode().Perm() != 0o755 {
		t.Fatalf("release dir mode %v", dst.Mode())
	}
	if b, err := os.ReadFile(filepath.Join(inst.LibDir, "libllama.so.0")); err != nil || string(b) != "fake libllama" {
		t.Fatalf("SONAME link: %q %v", b, err)
	}
	if rs.shim.requests.Load() != 0 {
		t.Fatal("shim fetched on a new-enough host")
	}
	// Warm: no network.
	n := rs.archive.requests.Load()
	inst2, err := rs.ensure(t, f)
	if err != nil || inst2.Downloaded || rs.archive.requests.Load() != n || inst2.Bin != inst.Bin {
		t.Fatalf("warm: %+v %v", inst2, err)
	}
	// --verify notices a tampered library and re-extracts from the cached archive.
	lib := filepath.Join(inst.LibDir, "libllama.so.0.0.9444")
	os.WriteFile(lib, []byte("tampered"), 0o644)
	if _, err := f.EnsureLlamaServer(ctxT(t), rs.pins, runtime.GOOS, runtime.GOARCH, EnsureOptions{Verify: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(lib); string(b) != "fake libllama" || rs.archive.requests.Load() != n {
		t.Fatalf("after verify: %q, %d requests", b, rs.archive.requests.Load())
	}
	if !f.ReleaseCached(a) {
		t.Fatal("ReleaseCached = false")
	}
}

func TestEnsureLlamaServerInstallsShimOnOldLibstdcxx(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the libstdc++ probe runs on Linux only")
	}
	rs := newReleaseServer(t, releaseEntries("#!/bin/sh\n"), "GLIBCXX_3.4.28 GLIBCXX_3.4.29", "GLIBC_2.34")
	f := rs.fetcher(t)
	inst, err := rs.ensure(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if !inst.Shim {
		t.Fatal("no shim on a GLIBCXX_3.4.29 host")
	}
	if b, err := os.ReadFile(filepath.Join(inst.LibDir, "libstdc++.so.6")); err != nil || string(b) != "shim GLIBCXX_3.4.30" {
		t.Fatalf("shim: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(inst.LibDir, "index.json")); !os.IsNotExist(err) {
		t.Fatal("extracted more than the shim member")
	}
	n := rs.shim.requests.Load()
	if inst2, err := rs.ensure(t, f); err != nil || !inst2.Shim || rs.shim.requests.Load() != n {
		t.Fatalf("warm shim: %+v %v", inst2, err)
	}
}

func TestEnsureLlamaServerRefusesOldGlibcWithoutNetwork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the glibc probe runs on Linux only")
	}
	rs := newReleaseServer(t, releaseEntries("x"), "GLIBCXX_3.4.25", "GLIBC_2.17 GLIBC_2.28")
	f := rs.fetcher(t)
	_, err := rs.ensure(t, f)
	if err == nil || !strings.Contains(err.Error(), "glibc 2.28") || !strings.Contains(err.Error(), "shim cannot") || !strings.Contains(err.Error(), "endpoint: mode") {
		t.Fatalf("err = %v", err)
	}
	if rs.archive.requests.Load()+rs.shim.requests.Load() != 0 {
		t.Fatal("downloaded for a host that cannot run it")
	}
}

func TestEnsureLlamaServerMissingMember(t *testing.T) {
	rs := newReleaseServer(t, []tarEntry{{name: "llama/README", typ: tar.TypeReg, body: "no binary"}}, "GLIBCXX_3.4.33", "GLIBC_2.39")
	f := rs.fetcher(t)
	_, err := rs.ensure(t, f)
	if err == nil || !strings.Contains(err.Error(), "llama-server not found in archive") {
		t.Fatalf("err = %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(f.CacheDir, "bin"))
	for _, e := range entries {
		if e.IsDir() {
			t.Fatalf("left a directory behind: %s", e.Name())
		}
	}
}

func TestEnsureLlamaServerUnpinnedPlatform(t *testing.T) {
	p, _ := LoadPins("")
	_, err := newTestFetcher(t).EnsureLlamaServer(ctxT(t), p, "windows", "amd64", EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), `"windows/amd64"`) || !strings.Contains(err.Error(), "endpoint: mode") {
		t.Fatalf("err = %v", err)
	}
}
