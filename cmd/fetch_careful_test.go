package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/fetch"
)

// TestFetchJSONFailureIsAnObject: a failed fetch with --json prints one
// object per artifact with the same fields as success, plus ok:false and
// the error; a 404 leaves no .part and no .lock behind.
func TestFetchJSONFailureIsAnObject(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	code, out, errs := runCmd(t, "fetch-models", "tiny", "missing", "--json", "--pins", overlay, "--cache-dir", cache)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rs []map[string]any
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 2 {
		t.Fatalf("json %q: %v", out, err)
	}
	for _, k := range []string{"id", "kind", "path", "size", "sha256", "downloaded", "ok"} {
		if _, ok := rs[1][k]; !ok {
			t.Errorf("failure object has no %q: %v", k, rs[1])
		}
		if _, ok := rs[0][k]; !ok {
			t.Errorf("success object has no %q: %v", k, rs[0])
		}
	}
	if rs[0]["ok"] != true || rs[1]["ok"] != false || !strings.Contains(fmt.Sprint(rs[1]["error"]), "http 404") || rs[1]["id"] != "missing" {
		t.Fatalf("objects: %v", rs)
	}
	if !strings.Contains(errs, `fetch model "missing"`) {
		t.Fatalf("stderr: %q", errs)
	}
	leftovers := cacheFiles(t, cache, func(p string) bool { return strings.HasSuffix(p, ".part") || strings.HasSuffix(p, ".lock") })
	if len(leftovers) > 0 {
		t.Fatalf("left behind: %v", leftovers)
	}

	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	code, out, _ = runCmd(t, "fetch-llama-server", "--platform", "plan9/mips", "--json", "--pins", overlay, "--cache-dir", cache, "--mirror", notFound.URL)
	if code != 1 {
		t.Fatalf("llama-server 404: exit %d", code)
	}
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || rs[0]["ok"] != false || rs[0]["error"] == nil || rs[0]["lib_dir"] == nil {
		t.Fatalf("llama-server failure json %q: %v", out, err)
	}
}

func cacheFiles(t *testing.T, root string, keep func(string) bool) []string {
	t.Helper()
	var found []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && keep(p) {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// TestFetchMirrorErrorsAreUsageErrors: a bad --mirror and a bad
// $KITSOKI_MIRROR both exit 2 and name where the value came from.
func TestFetchMirrorErrorsAreUsageErrors(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	code, _, errs := runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", cache, "--mirror", "ftp://nope")
	if code != 2 || !strings.Contains(errs, "--mirror") {
		t.Fatalf("--mirror: exit %d %q", code, errs)
	}
	t.Setenv(fetch.EnvMirror, "ftp://nope")
	code, _, errs = runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", cache)
	if code != 2 || !strings.Contains(errs, "$"+fetch.EnvMirror) {
		t.Fatalf("$%s: exit %d %q", fetch.EnvMirror, code, errs)
	}
	t.Setenv(fetch.EnvMirror, "")
	t.Setenv("SSL_CERT_FILE", filepath.Join(t.TempDir(), "none.pem"))
	code, _, errs = runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", cache)
	if code != 2 || !strings.Contains(errs, "SSL_CERT_FILE") {
		t.Fatalf("bad SSL_CERT_FILE: exit %d %q", code, errs)
	}
}

// TestFetchVerifySaysWhy: --verify on a corrupted cached model says it is
// hashing, then why it downloads again.
func TestFetchVerifySaysWhy(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	common := []string{"--pins", overlay, "--cache-dir", cache}
	if code, _, errs := runCmd(t, append([]string{"fetch-models", "tiny"}, common...)...); code != 0 {
		t.Fatal(errs)
	}
	code, _, errs := runCmd(t, append([]string{"fetch-models", "tiny", "--verify"}, common...)...)
	if code != 0 || !strings.Contains(errs, "verifying sha256 of the cached tiny (44 B)") || strings.Contains(errs, "mismatch") || strings.Contains(errs, "downloading") {
		t.Fatalf("intact: exit %d %q", code, errs)
	}
	os.WriteFile(filepath.Join(cache, "models", "tiny.gguf"), bytes.Repeat([]byte("x"), 44), 0o644)
	code, out, errs := runCmd(t, append([]string{"fetch-models", "tiny", "--verify"}, common...)...)
	if code != 0 || !strings.Contains(errs, "tiny: sha256 mismatch on the cached file, downloading again\n") || !strings.Contains(out, "tiny ready (downloaded)") {
		t.Fatalf("corrupt: exit %d %q %q", code, errs, out)
	}
	if i, j := strings.Index(errs, "verifying"), strings.Index(errs, "mismatch"); i < 0 || j < i {
		t.Fatalf("order: %q", errs)
	}
}

// TestFetchForceReplacesTheFile: --force downloads again and the result is
// verified in place.
func TestFetchForceReplacesTheFile(t *testing.T) {
	overlay, requests := fetchFixture(t)
	cache := t.TempDir()
	common := []string{"--pins", overlay, "--cache-dir", cache}
	runCmd(t, append([]string{"fetch-models", "tiny"}, common...)...)
	before := *requests
	code, out, errs := runCmd(t, append([]string{"fetch-models", "tiny", "--force"}, common...)...)
	if code != 0 || *requests != before+1 || !strings.Contains(out, "tiny ready (downloaded)") {
		t.Fatalf("--force: exit %d %q %q", code, out, errs)
	}
	code, out, _ = runCmd(t, append([]string{"fetch-models", "--list"}, common...)...)
	if code != 0 || !regexpLine(out, `model\s+tiny\s+44 B\s+verified`) {
		t.Fatalf("list after --force:\n%s", out)
	}
}

// TestFetchListCountsBytesReallyOnDisk: a parallel .part has the full
// length; --list reports what its parts hold.
func TestFetchListCountsBytesReallyOnDisk(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	pins, err := fetch.LoadPins(overlay)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := pins.Model("tiny")
	dest := filepath.Join(cache, "models", "tiny.gguf")
	os.MkdirAll(filepath.Dir(dest), 0o755)
	fh, _ := os.Create(dest + ".part")
	fh.Truncate(44) // sparse: 44 bytes long, nothing written
	fh.Close()
	state := fmt.Sprintf(`{"url":%q,"sha256":%q,"total":44,"parallel":true,"parts":[{"start":0,"end":22,"done":5},{"start":22,"end":44,"done":0}]}`, a.URL, a.SHA256)
	os.WriteFile(dest+".part.json", []byte(state), 0o644)
	code, out, _ := runCmd(t, "fetch-models", "--list", "--pins", overlay, "--cache-dir", cache)
	if code != 0 || !regexpLine(out, `model\s+tiny\s+44 B\s+partial \(5 B on disk\)`) {
		t.Fatalf("list:\n%s", out)
	}
	os.WriteFile(dest+".part.json", []byte(strings.ReplaceAll(state, `"done":5`, `"done":0`)), 0o644)
	if _, out, _ = runCmd(t, "fetch-models", "--list", "--pins", overlay, "--cache-dir", cache); !regexpLine(out, `tiny\s+44 B\s+partial \(0 B on disk\)`) {
		t.Fatalf("list of an empty part:\n%s", out)
	}
}

// TestFetchProgressCountsOnlyThisRun: after a resume, speed and ETA come
// from the bytes moved in this run, and nothing says "size unknown" about
// zero bytes.
func TestFetchProgressCountsOnlyThisRun(t *testing.T) {
	a := &fetch.Artifact{ID: "big"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	var buf bytes.Buffer
	d := newFetchDisplay(&buf)
	d.now = func() time.Time { return clock }
	d.every = 0
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseStart, Host: "h", Total: 200e6})
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDownload, Done: 100e6, Resumed: 100e6, Total: 200e6})
	clock = t0.Add(5 * time.Second)
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDownload, Done: 150e6, Resumed: 100e6, Total: 200e6})
	clock = t0.Add(10 * time.Second)
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDone, Done: 200e6, Resumed: 100e6, Total: 200e6})
	want := "downloading big (200.0 MB) from h\n" +
		"big: 75%  150.0 MB / 200.0 MB  10.0 MB/s  ETA 5s\n" +
		"big: downloaded 100.0 MB in 10.00s (10.0 MB/s), resumed after 100.0 MB already on disk\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if s := progressLine(fetch.Progress{Total: 200e6}, time.Second); strings.Contains(s, "unknown") {
		t.Fatalf("zero bytes: %q", s)
	}
}

// TestFetchBarOnTerminalCountsOnlyThisRun: the terminal's bar (the
// progressbar library) counts the bytes this run moved, out of the bytes
// this run must move, so that its speed and time left leave the resumed
// part out; the label says what was resumed, and a hostile id from a pins
// file reaches the terminal escaped.
func TestFetchBarOnTerminalCountsOnlyThisRun(t *testing.T) {
	var buf bytes.Buffer
	d := newFetchDisplay(&buf)
	d.tty = true
	a := &fetch.Artifact{ID: "big\x1b[2J"}
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseStart, Host: "h", Total: 200e6})
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDownload, Done: 150e6, Resumed: 100e6, Total: 200e6})
	lines := screen(buf.String())
	bar, ok := lineStartingWith(lines, `big\x1b[2J (resumed after 100.0 MB) `)
	if !ok || !strings.Contains(bar, " 50% |") || !strings.Contains(bar, "(50/100 MB") {
		t.Fatalf("no bar of this run's 50 of 100 MB:\n%q", buf.String())
	}
	if strings.Count(buf.String(), "\x1b[2J") != 0 {
		t.Fatalf("the id's escape reached the terminal: %q", buf.String())
	}
	d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDone, Done: 200e6, Resumed: 100e6, Total: 200e6})
	if lines := screen(buf.String()); !strings.HasPrefix(lines[len(lines)-2], `big\x1b[2J: downloaded 100.0 MB in `) || lines[len(lines)-1] != "" {
		t.Fatalf("the bar was not replaced by the done line: %q", lines)
	}
}

// BenchmarkFetchWarmStart: fetch-models of a cached model, in process, with
// SSL_CERT_FILE set: nothing is downloaded, so neither the HTTP client nor
// the system certificate pool may be built.
func BenchmarkFetchWarmStart(b *testing.B) {
	overlay, _ := fetchFixture(b)
	cache := b.TempDir()
	args := []string{"fetch-models", "tiny", "--pins", overlay, "--cache-dir", cache}
	var out, errb bytes.Buffer
	if code := Run(args, &out, &errb); code != 0 {
		b.Fatal(errb.String())
	}
	if _, err := os.Stat("/etc/ssl/certs/ca-certificates.crt"); err == nil {
		b.Setenv("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out.Reset()
		if code := Run(args, &out, &errb); code != 0 {
			b.Fatal(errb.String())
		}
	}
}

// TestFetchLlamaServerVerifyIsVisible: --verify of an extracted release
// shows the verifying step.
func TestFetchLlamaServerVerifyIsVisible(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	args := []string{"fetch-llama-server", "--platform", "plan9/mips", "--pins", overlay, "--cache-dir", cache}
	if code, _, errs := runCmd(t, args...); code != 0 {
		t.Fatal(errs)
	}
	code, _, errs := runCmd(t, append(args, "--verify")...)
	if code != 0 || !strings.Contains(errs, "verifying sha256 of the cached llama-server-test") {
		t.Fatalf("exit %d %q", code, errs)
	}
}

// TestFetchDisplayWhileNothingMoves: before the first byte a terminal shows
// what the download waits for, a log shows nothing, and neither says
// "size unknown".
func TestFetchDisplayWhileNothingMoves(t *testing.T) {
	a := &fetch.Artifact{ID: "big"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tty := range []bool{false, true} {
		clock := t0
		var buf bytes.Buffer
		d := newFetchDisplay(&buf)
		d.tty, d.every = tty, 0
		d.now = func() time.Time { return clock }
		d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseStart, Host: "h:1", Total: 200e6})
		clock = t0.Add(3 * time.Second)
		d.report(fetch.Progress{Artifact: a, Phase: fetch.PhaseDownload, Host: "h:1", Total: 200e6})
		d.abort()
		got := buf.String()
		want := "downloading big (200.0 MB) from h:1\n"
		if tty {
			want += "\r\x1b[Kbig waiting for h:1  3s\r\x1b[K"
		}
		if got != want {
			t.Errorf("tty=%v: %q, want %q", tty, got, want)
		}
	}
}

// TestFetchListShowsFilesNotVerifiedYet: a cache shared with the existing
// kitsoki engine holds weights without a record of ours and a release
// directory without our manifest; --list says they are there, not "not
// cached" (a fetch or a start then checks and uses them).
func TestFetchListShowsFilesNotVerifiedYet(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	dest := filepath.Join(cache, "models", "tiny.gguf")
	os.MkdirAll(filepath.Dir(dest), 0o755)
	os.WriteFile(dest, []byte("weights the existing engine downloaded"), 0o600)
	pins, err := fetch.LoadPins(overlay)
	if err != nil {
		t.Fatal(err)
	}
	ls, _ := pins.LlamaServer("linux", "amd64")
	rel := filepath.Join(cache, "bin", "llama-"+ls.SHA256[:12])
	os.MkdirAll(rel, 0o700)
	os.WriteFile(filepath.Join(rel, "llama-server"), []byte("#!/bin/sh\n"), 0o755)
	code, out, _ := runCmd(t, "fetch-models", "--list", "--pins", overlay, "--cache-dir", cache)
	if code != 0 || !regexpLine(out, `model\s+tiny\s+44 B\s+on disk, not verified yet`) || !regexpLine(out, `llama-server\s+linux/amd64\s+-\s+on disk, not verified yet`) {
		t.Fatalf("list:\n%s", out)
	}
}
