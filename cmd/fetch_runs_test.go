package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
)

// fetch-llama-server for this host runs the extracted binary once
// (--version, with its release directory on LD_LIBRARY_PATH): a release
// this host cannot load fails the fetch, quoting the loader, instead of a
// story's first call.
func TestFetchLlamaServerRunsTheBinaryOnThisHost(t *testing.T) {
	a := standintest.ServeArtifacts(t, buildTestBinary(t, "kitsoki/internal/testing/llamastandin"))
	cache := t.TempDir()
	t.Setenv(standintest.EnvRequireLib, "")
	code, out, errs := runCmd(t, "fetch-llama-server", "--pins", a.Pins, "--cache-dir", cache)
	if code != 0 || !strings.Contains(out, "  runs    version 9444 (stand-in)\n") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}

	// The same cached release on a host missing a library it needs.
	t.Setenv(standintest.EnvRequireLib, "libnotonthishost.so.1")
	code, out, errs = runCmd(t, "fetch-llama-server", "--pins", a.Pins, "--cache-dir", cache, "--json")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", code, out, errs)
	}
	var rs []fetchResult
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || rs[0].OK {
		t.Fatalf("json %q %v", out, err)
	}
	for _, want := range []string{"downloaded and verified, but does not run on this host", "libnotonthishost.so.1: cannot open shared object file", "endpoint: mode"} {
		if !strings.Contains(rs[0].Error, want) || !strings.Contains(errs, want) {
			t.Errorf("error lacks %q:\njson: %s\nstderr: %s", want, rs[0].Error, errs)
		}
	}
}

// --limit-rate takes 1024-based K/M/G rates; anything else is a usage error
// naming the flag, before any request.
func TestFetchLimitRateFlag(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "2048": 2048, "500K": 500 << 10, "1.5M": 3 << 19, "1g": 1 << 30} {
		if got, err := parseRate(in); err != nil || got != want {
			t.Errorf("parseRate(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	overlay, requests := fetchFixture(t)
	for _, bad := range []string{"fast", "-1M", "0", "10", "NaNK", " ", "K"} {
		code, _, errs := runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", t.TempDir(), "--limit-rate", bad)
		if bad == " " {
			if code != 0 {
				t.Errorf("--limit-rate %q (no limit): exit %d %s", bad, code, errs)
			}
			continue
		}
		if code != 2 || !strings.Contains(errs, "--limit-rate") || !strings.Contains(errs, "500K") {
			t.Errorf("--limit-rate %q: exit %d %q", bad, code, errs)
		}
	}
	before := *requests
	code, out, errs := runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", t.TempDir(), "--limit-rate", "100M")
	if code != 0 || !strings.Contains(out, "tiny ready (downloaded)") || *requests != before+1 {
		t.Fatalf("--limit-rate 100M: exit %d\n%s\n%s", code, out, errs)
	}
}

// fetch-models --list --json is one array of objects a script can read
// (kind, key, id, state), as scripters expect of list commands.
func TestFetchListJSON(t *testing.T) {
	overlay, _ := fetchFixture(t)
	code, out, errs := runCmd(t, "fetch-models", "--list", "--json", "--pins", overlay, "--cache-dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []listEntry
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("--list --json: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Kind == "" || r.Key == "" || r.State == "" {
			t.Errorf("row without kind, key or state: %+v", r)
		}
	}
}

// --progress-json puts one JSON object per progress report on stderr, and
// nothing else there on success: a UI can draw from it.
func TestFetchProgressJSON(t *testing.T) {
	overlay, _ := fetchFixture(t)
	code, out, errs := runCmd(t, "fetch-models", "tiny", "--progress-json", "--pins", overlay, "--cache-dir", t.TempDir())
	if code != 0 || !strings.Contains(out, "tiny ready (downloaded)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var phases []string
	var last progressEvent
	for line := range strings.SplitSeq(strings.TrimSpace(errs), "\n") {
		if err := json.Unmarshal([]byte(line), &last); err != nil {
			t.Fatalf("stderr line %q is not JSON: %v", line, err)
		}
		if last.ID != "tiny" || last.Kind != "model" {
			t.Fatalf("event %+v", last)
		}
		phases = append(phases, last.Phase)
	}
	if phases[0] != "start" || last.Phase != "done" || last.Done != 44 || last.Total != 44 || !strings.HasPrefix(last.Host, "127.0.0.1:") {
		t.Fatalf("phases %v, last %+v", phases, last)
	}
}

// fetch-models --list counts the cache entries no pin names and --prune
// removes them, pinned files staying.
func TestFetchPrune(t *testing.T) {
	overlay, _ := fetchFixture(t)
	cache := t.TempDir()
	if code, _, errs := runCmd(t, "fetch-models", "tiny", "--pins", overlay, "--cache-dir", cache); code != 0 {
		t.Fatalf("fetch: exit %d %s", code, errs)
	}
	old := filepath.Join(cache, "bin", "llama-0123456789ab")
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "llama-server"), []byte("an earlier release"), 0o755)
	os.WriteFile(filepath.Join(cache, "models", "dropped.gguf"), []byte("old"), 0o644)

	code, out, _ := runCmd(t, "fetch-models", "--list", "--pins", overlay, "--cache-dir", cache)
	if code != 0 || !strings.Contains(out, "2 cache entries no pin names (21 B): kitsoki fetch-models --prune removes them") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	code, out, errs := runCmd(t, "fetch-models", "--prune", "--json", "--pins", overlay, "--cache-dir", cache)
	var rs []pruneResult
	if code != 0 || json.Unmarshal([]byte(out), &rs) != nil || len(rs) != 2 || !rs[0].Removed || !rs[1].Removed {
		t.Fatalf("prune: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old release survived: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "models", "tiny.gguf")); err != nil {
		t.Errorf("the pinned model was removed: %v", err)
	}
	if code, _, _ := runCmd(t, "fetch-models", "--prune", "--list", "--pins", overlay, "--cache-dir", cache); code != 2 {
		t.Errorf("--prune --list: exit %d, want 2", code)
	}
}

// An orphan's file name comes from the cache directory, which may be a
// shared or restored one: --prune prints it on one line with its control
// characters escaped, so a name cannot add a line, a CI command or a
// terminal escape; --json keeps the exact name behind JSON escapes.
func TestFetchPrunePrintsHostileNamesEscaped(t *testing.T) {
	overlay, _ := fetchFixture(t)
	for _, asJSON := range []bool{false, true} {
		cache := t.TempDir()
		name := "a\n::error file=x::pwned\x1b[31m\u202e-.gguf"
		os.MkdirAll(filepath.Join(cache, "models"), 0o755)
		if err := os.WriteFile(filepath.Join(cache, "models", name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"fetch-models", "--prune", "--pins", overlay, "--cache-dir", cache}
		if asJSON {
			args = append(args, "--json")
		}
		code, out, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("prune: exit %d\n%s\n%s", code, out, errs)
		}
		if strings.ContainsAny(out, "\x1b\u202e") || strings.Contains(out, "\n::error") {
			t.Errorf("json=%v: the name reached stdout raw:\n%q", asJSON, out)
		}
		if asJSON {
			var rs []pruneResult
			if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || filepath.Base(rs[0].Path) != name {
				t.Errorf("json: %v %+v", err, rs)
			}
		} else if !strings.Contains(out, `removed `+filepath.Join(cache, "models")+`/a\n::error file=x::pwned\x1b[31m\u202e-.gguf (1 B)`) {
			t.Errorf("text:\n%s", out)
		}
	}
}
