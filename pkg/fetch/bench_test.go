package fetch

// Benchmarks for `make bench-fetch`. The artifact size comes from
// KITSOKI_BENCH_FETCH_SIZE (bytes, or with a KiB/MiB/GiB suffix; default
// 32MiB so plain `go test -bench` stays quick); the per-connection cap of
// BenchmarkCappedParts from KITSOKI_BENCH_FETCH_RATE (default 16MiB/s; that
// benchmark caps its size at 64MiB). Peak RSS is reported on Linux.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func benchSize(b *testing.B, env string, def int64) int64 {
	s := os.Getenv(env)
	if s == "" {
		return def
	}
	mult := int64(1)
	for suf, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if before, ok := strings.CutSuffix(s, suf); ok {
			s, mult = before, m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want bytes or a KiB/MiB/GiB size", env, os.Getenv(env))
	}
	return n * mult
}

// benchFile writes size pseudo-random bytes to a file and returns its path and sha256.
func benchFile(b *testing.B, size int64) (string, string) {
	p := filepath.Join(b.TempDir(), "artifact.bin")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	r := rand.NewChaCha8([32]byte{1})
	buf := make([]byte, 1<<20)
	for left := size; left > 0; {
		n := min(int64(len(buf)), left)
		r.Read(buf[:n])
		w.Write(buf[:n])
		left -= n
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p, hex.EncodeToString(h.Sum(nil))
}

// fileHandler serves a file with Range support (sendfile; flat memory).
func fileHandler(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		st, _ := f.Stat()
		w.Header().Set("ETag", `"bench"`)
		http.ServeContent(w, r, "artifact.bin", st.ModTime(), f)
	})
}

func benchArtifact(b *testing.B, url, sum string, size int64) *Artifact {
	return &Artifact{Kind: KindModel, Key: "bench", ID: "bench", URL: url, SHA256: sum, Size: size, Format: "gguf", Source: "bench"}
}

// resetPeakRSS clears VmHWM (Linux); peakRSS reads it in MiB (0 elsewhere).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkFetchLoopback: a cold download + verify from a loopback server.
func BenchmarkFetchLoopback(b *testing.B) {
	size := benchSize(b, "KITSOKI_BENCH_FETCH_SIZE", 32<<20)
	path, sum := benchFile(b, size)
	srv := httptest.NewServer(fileHandler(path))
	defer srv.Close()
	for _, parts := range []int{1, 4} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			a := benchArtifact(b, srv.URL+"/artifact.bin", sum, size)
			b.SetBytes(size)
			var peak float64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				f := &Fetcher{CacheDir: b.TempDir(), Parts: parts, PartThreshold: 1, HTTPClient: &http.Client{}}
				resetPeakRSS()
				b.StartTimer()
				if _, err := f.Ensure(context.Background(), a, EnsureOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				peak = max(peak, peakRSS())
				os.RemoveAll(f.CacheDir)
				b.StartTimer()
			}
			b.ReportMetric(peak, "peak-RSS-MiB")
		})
	}
}

// BenchmarkCurlSha256sum is the baseline: curl -o, then sha256sum.
func BenchmarkCurlSha256sum(b *testing.B) {
	for _, tool := range []string{"curl", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not installed", tool)
		}
	}
	size := benchSize(b, "KITSOKI_BENCH_FETCH_SIZE", 32<<20)
	path, sum := benchFile(b, size)
	srv := httptest.NewServer(fileHandler(path))
	defer srv.Close()
	b.SetBytes(size)
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), "artifact.bin")
		if err := exec.Command("curl", "-sSf", "-o", out, srv.URL+"/artifact.bin").Run(); err != nil {
			b.Fatal(err)
		}
		got, err := exec.Command("sha256sum", out).Output()
		if err != nil || !strings.HasPrefix(string(got), sum) {
			b.Fatalf("sha256sum: %s %v", got, err)
		}
		os.Remove(out)
	}
}

// BenchmarkWarmStart: Ensure on a cached, recorded file (no re-hash),
// against BenchmarkRehash, what a warm start would cost without the record.
func BenchmarkWarmStart(b *testing.B) {
	size := benchSize(b, "KITSOKI_BENCH_FETCH_SIZE", 32<<20)
	path, sum := benchFile(b, size)
	f := &Fetcher{CacheDir: b.TempDir()}
	a := benchArtifact(b, "http://127.0.0.1:1/never", sum, size)
	dest, _ := f.Path(a)
	os.MkdirAll(filepath.Dir(dest), 0o755)
	if err := os.Rename(path, dest); err != nil {
		b.Fatal(err)
	}
	if err := writeRecord(dest, sum); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := f.Ensure(context.Background(), a, EnsureOptions{})
		if err != nil || res.Downloaded {
			b.Fatal(res, err)
		}
	}
}

func BenchmarkRehash(b *testing.B) {
	size := benchSize(b, "KITSOKI_BENCH_FETCH_SIZE", 32<<20)
	path, sum := benchFile(b, size)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got, _, err := hashFile(path); err != nil || got != sum {
			b.Fatal(err)
		}
	}
}

// BenchmarkCappedParts: each connection is capped (like a CDN per-stream
// limit); 4 parallel parts against one stream.
func BenchmarkCappedParts(b *testing.B) {
	size := min(benchSize(b, "KITSOKI_BENCH_FETCH_SIZE", 32<<20), 64<<20)
	rate := benchSize(b, "KITSOKI_BENCH_FETCH_RATE", 16<<20)
	data := randomData(int(size), 99)
	fs := newFileServer(b, data)
	fs.rate.Store(rate)
	a := benchArtifact(b, fs.url("artifact.bin"), sum256(data), size)
	for _, parts := range []int{1, 4} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			b.SetBytes(size)
			for i := 0; i < b.N; i++ {
				f := &Fetcher{CacheDir: b.TempDir(), Parts: parts, PartThreshold: 1, HTTPClient: &http.Client{}}
				start := time.Now()
				if _, err := f.Ensure(context.Background(), a, EnsureOptions{}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(size)/(1<<20)/time.Since(start).Seconds(), "MiB/s")
			}
		})
	}
}
