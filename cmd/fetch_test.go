package cmd

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fetchFixture serves a tiny model and a tiny llama-server release on
// loopback and writes a pins overlay for them.
func fetchFixture(t testing.TB) (overlay string, requests *int) {
	t.Helper()
	model := []byte("GGUF tiny weights for the fetch command test")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range []struct {
		name, link, body string
	}{
		{name: "llama-b1/llama-server", body: "#!/bin/sh\n"},
		{name: "llama-b1/libllama.so.0.0.1", body: "lib"},
		{name: "llama-b1/libllama.so.0", link: "libllama.so.0.0.1"},
	} {
		h := &tar.Header{Name: e.name, Mode: 0o755, Typeflag: tar.TypeReg, Size: int64(len(e.body))}
		if e.link != "" {
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.link, 0
		}
		tw.WriteHeader(h)
		tw.Write([]byte(e.body))
	}
	tw.Close()
	zw.Close()
	archive := buf.Bytes()
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		switch r.URL.Path {
		case "/tiny.gguf":
			w.Write(model)
		case "/llama.tar.gz":
			w.Write(archive)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	hex256 := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	overlay = filepath.Join(t.TempDir(), "pins.yaml")
	os.WriteFile(overlay, []byte(fmt.Sprintf(`llama_server:
  plan9/mips:
    id: llama-server-test
    release: b1
    url: %[1]s/llama.tar.gz
    sha256: %[2]s
    format: tar.gz
models:
  tiny:
    id: tiny
    url: %[1]s/tiny.gguf
    sha256: %[3]s
    size: %[4]d
  wrong:
    id: wrong
    url: %[1]s/tiny.gguf
    sha256: %[5]s
  missing:
    id: missing
    url: %[1]s/missing.gguf
    sha256: %[5]s
`, srv.URL, hex256(archive), hex256(model), len(model), strings.Repeat("0", 64))), 0o644)
	return overlay, &n
}

func TestFetchModelsCommand(t *testing.T) {
	t.Parallel() // in process, its own server and cache dirs
	overlay, requests := fetchFixture(t)
	cache := t.TempDir()
	common := []string{"--pins", overlay, "--cache-dir", cache}

	code, out, errs := runCmd(t, append([]string{"fetch-models", "tiny", "--json"}, common...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "downloading tiny (44 B) from 127.0.0.1:") {
		t.Fatalf("no disclosure on stderr: %q", errs)
	}
	var rs []fetchResult
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || !rs[0].Downloaded || rs[0].Size != 44 || rs[0].Path != filepath.Join(cache, "models", "tiny.gguf") {
		t.Fatalf("json %q %v", out, err)
	}

	before := *requests
	code, out, _ = runCmd(t, append([]string{"fetch-models", "tiny"}, common...)...)
	if code != 0 || *requests != before || !strings.Contains(out, "tiny ready (cached)") || !strings.Contains(out, "sha256  "+rs[0].SHA256) {
		t.Fatalf("warm: exit %d, %d new requests, out %q", code, *requests-before, out)
	}

	code, out, _ = runCmd(t, append([]string{"fetch-models", "--list"}, common...)...)
	if code != 0 || !regexpLine(out, `model\s+tiny\s+44 B\s+verified`) || !regexpLine(out, `model\s+bge-small-en-v1.5\s+-\s+unpinned`) || !regexpLine(out, `model\s+qwen2.5-1.5b-instruct\s+1.1 GB\s+not cached`) {
		t.Fatalf("list:\n%s", out)
	}

	code, _, errs = runCmd(t, append([]string{"fetch-models", "wrong"}, common...)...)
	if code != 1 || !strings.Contains(errs, "sha256 mismatch") {
		t.Fatalf("mismatch: exit %d %q", code, errs)
	}
	code, _, errs = runCmd(t, append([]string{"fetch-models", "missing"}, common...)...)
	if code != 1 || !strings.Contains(errs, "http 404") {
		t.Fatalf("404: exit %d %q", code, errs)
	}
	code, _, errs = runCmd(t, append([]string{"fetch-models", "nope"}, common...)...)
	if code != 2 || !strings.Contains(errs, `no weights pin for model "nope"`) {
		t.Fatalf("unknown: exit %d %q", code, errs)
	}
	code, _, errs = runCmd(t, append([]string{"fetch-models", "bge-small-en-v1.5"}, common...)...)
	if code != 2 || !strings.Contains(errs, "endpoint: mode") {
		t.Fatalf("unpinned: exit %d %q", code, errs)
	}
	code, _, _ = runCmd(t, append([]string{"fetch-models", "tiny", "--all"}, common...)...)
	if code != 2 {
		t.Fatalf("MODEL with --all: exit %d", code)
	}
}

func TestFetchLlamaServerCommand(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	code, out, errs := runCmd(t, "fetch-llama-server", "--platform", "plan9/mips", "--pins", overlay, "--cache-dir", cache, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rs []fetchResult
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || !rs[0].Downloaded {
		t.Fatalf("json %q %v", out, err)
	}
	if b, err := os.ReadFile(filepath.Join(rs[0].LibDir, "libllama.so.0")); err != nil || string(b) != "lib" {
		t.Fatalf("SONAME link in %s: %q %v", rs[0].LibDir, b, err)
	}
	if filepath.Base(rs[0].Path) != "llama-server" {
		t.Fatalf("path %s", rs[0].Path)
	}
	code, _, errs = runCmd(t, "fetch-llama-server", "--platform", "windows/arm64", "--pins", overlay, "--cache-dir", cache)
	if code != 2 || !strings.Contains(errs, `"windows/arm64"`) || !strings.Contains(errs, "endpoint: mode") {
		t.Fatalf("unpinned platform: exit %d %q", code, errs)
	}
	code, _, _ = runCmd(t, "fetch-llama-server", "--platform", "linux")
	if code != 2 {
		t.Fatalf("bad --platform: exit %d", code)
	}
}

func regexpLine(out, pattern string) bool {
	for line := range strings.SplitSeq(out, "\n") {
		if ok, _ := regexpMatch(pattern, line); ok {
			return true
		}
	}
	return false
}

func regexpMatch(pattern, s string) (bool, error) { return regexp.MatchString(pattern, s) }
