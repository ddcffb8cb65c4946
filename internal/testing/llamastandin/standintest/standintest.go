package standintest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Environment knobs of the stand-in (see its package comment).
const (
	EnvLoadMS       = "STANDIN_LOAD_MS"
	EnvNeverHealthy = "STANDIN_NEVER_HEALTHY"
	EnvIgnoreTerm   = "STANDIN_IGNORE_TERM"
	EnvRecord       = "STANDIN_RECORD"
	EnvRequireLib   = "STANDIN_REQUIRE_LIB"
	EnvEmbedDim     = "STANDIN_EMBED_DIM"
	EnvChatText     = "STANDIN_CHAT_TEXT"
	EnvCtx          = "STANDIN_CTX"
)

// standinPackage is the import path of the stand-in's main package.
const standinPackage = "kitsoki/internal/testing/llamastandin"

// BuildTo compiles the stand-in into dir/llama-server and returns its path.
// Use it from TestMain to build once per test binary.
func BuildTo(dir string) (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "go"
	}
	out := filepath.Join(dir, "llama-server")
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", out, standinPackage)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build llama-server stand-in: %v\n%s", err, b)
	}
	return out, nil
}

// releaseArchive packs the stand-in binary like a llama.cpp release
// tar.gz: everything under llama-b9444/, fake shared libraries with SONAME
// symlinks (libllama.so.0 -> libllama.so.0.0.9444, ...). Start the stand-in
// with STANDIN_REQUIRE_LIB=libllama.so.0 to prove the links and
// LD_LIBRARY_PATH work. It returns the archive and its sha256.
func releaseArchive(t testing.TB, bin string) ([]byte, string) {
	t.Helper()
	server, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	// Stored (level 0) deflate blocks: still a real tar.gz, but cheap to
	// build and unpack under the race detector.
	zw, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	tw := tar.NewWriter(zw)
	add := func(h *tar.Header, body []byte) {
		h.Size = int64(len(body))
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	add(&tar.Header{Name: "llama-b9444/", Typeflag: tar.TypeDir, Mode: 0o755}, nil)
	add(&tar.Header{Name: "llama-b9444/llama-server", Typeflag: tar.TypeReg, Mode: 0o755}, server)
	for _, lib := range []string{"libllama", "libggml", "libggml-base"} {
		add(&tar.Header{Name: "llama-b9444/" + lib + ".so.0.0.9444", Typeflag: tar.TypeReg, Mode: 0o644}, []byte("stand-in "+lib))
		add(&tar.Header{Name: "llama-b9444/" + lib + ".so.0", Typeflag: tar.TypeSymlink, Linkname: lib + ".so.0.0.9444", Mode: 0o777}, nil)
		add(&tar.Header{Name: "llama-b9444/" + lib + ".so", Typeflag: tar.TypeSymlink, Linkname: lib + ".so.0", Mode: 0o777}, nil)
	}
	add(&tar.Header{Name: "llama-b9444/LICENSE", Typeflag: tar.TypeReg, Mode: 0o644}, []byte("MIT (stand-in)"))
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:])
}

// Cache builds the stand-in once per test binary and gives every test its
// own copy: declare one as a package variable. The build directory is
// removed as soon as the bytes are read, so no TestMain cleanup is needed.
type Cache struct {
	once sync.Once
	exe  []byte
	err  error
}

// Binary writes the stand-in into t.TempDir() and returns its path,
// building it on first use.
func (c *Cache) Binary(t testing.TB) string {
	t.Helper()
	c.once.Do(func() {
		dir, err := os.MkdirTemp("", "kitsoki-standin-")
		if err != nil {
			c.err = err
			return
		}
		defer os.RemoveAll(dir)
		bin, err := BuildTo(dir)
		if err != nil {
			c.err = err
			return
		}
		c.exe, c.err = os.ReadFile(bin)
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	name := "llama-server"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, c.exe, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
