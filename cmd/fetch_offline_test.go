package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/fetch"
)

// TestFetchOffline: a CI job restoring a cache with no network runs the
// fetch commands with --offline (or KITSOKI_OFFLINE=1): a warm cache is
// ready without a request; a cold one fails at once (exit 1) naming the
// file looked for and the command that warms the cache, without a
// request; --force with it, and a KITSOKI_OFFLINE that is no on/off
// word, are usage errors (exit 2).
func TestFetchOffline(t *testing.T) {
	overlay, requests := fetchFixture(t)
	cache := t.TempDir()
	common := []string{"--pins", overlay, "--cache-dir", cache}

	code, out, errs := runCmd(t, append([]string{"fetch-models", "tiny", "--offline"}, common...)...)
	if code != 1 || *requests != 0 {
		t.Fatalf("cold --offline: exit %d, %d requests\n%s%s", code, *requests, out, errs)
	}
	for _, want := range []string{"nothing verified is cached at " + filepath.Join(cache, "models", "tiny.gguf"), "KITSOKI_CACHE_DIR=" + cache, "kitsoki fetch-models tiny"} {
		if !strings.Contains(errs, want) {
			t.Errorf("cold --offline: stderr lacks %q:\n%s", want, errs)
		}
	}
	t.Setenv(fetch.EnvOffline, "1")
	code, _, errs = runCmd(t, append([]string{"fetch-llama-server", "--platform", "plan9/mips"}, common...)...)
	if code != 1 || *requests != 0 || !strings.Contains(errs, "kitsoki fetch-llama-server --platform plan9/mips") {
		t.Fatalf("cold KITSOKI_OFFLINE=1: exit %d, %d requests\n%s", code, *requests, errs)
	}

	t.Setenv(fetch.EnvOffline, "")
	for _, args := range [][]string{{"fetch-models", "tiny"}, {"fetch-llama-server", "--platform", "plan9/mips"}} {
		if code, _, errs := runCmd(t, append(args, common...)...); code != 0 {
			t.Fatalf("warming %v: exit %d\n%s", args, code, errs)
		}
	}
	warmed := *requests
	t.Setenv(fetch.EnvOffline, "1")
	for _, args := range [][]string{{"fetch-models", "tiny", "--offline"}, {"fetch-models", "tiny", "--verify"}, {"fetch-llama-server", "--platform", "plan9/mips"}} {
		code, out, errs := runCmd(t, append(args, common...)...)
		if code != 0 || *requests != warmed || !strings.Contains(out, "ready (cached)") {
			t.Fatalf("warm %v offline: exit %d, %d new requests\n%s%s", args, code, *requests-warmed, out, errs)
		}
	}

	code, _, errs = runCmd(t, append([]string{"fetch-models", "tiny", "--force"}, common...)...)
	if code != 2 || !strings.Contains(errs, "--force downloads again, which offline mode") {
		t.Fatalf("--force offline: exit %d\n%s", code, errs)
	}
	t.Setenv(fetch.EnvOffline, "maybe")
	code, _, errs = runCmd(t, append([]string{"fetch-models", "tiny"}, common...)...)
	if code != 2 || !strings.Contains(errs, `KITSOKI_OFFLINE="maybe"`) {
		t.Fatalf("bad KITSOKI_OFFLINE: exit %d\n%s", code, errs)
	}
}
