package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
)

// standinLlama is the llama-server STAND-IN (the real server cannot run
// here), built once for this test binary.
var standinLlama standintest.Cache

// fetch-llama-server for this host runs the extracted binary once
// (--version, with its release directory on LD_LIBRARY_PATH): a release
// this host cannot load fails the fetch, quoting the loader, instead of a
// story's first call.
func TestFetchLlamaServerRunsTheBinaryOnThisHost(t *testing.T) {
	a := standintest.ServeArtifacts(t, standinLlama.Binary(t))
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
