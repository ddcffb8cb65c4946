package cmd

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTraceOutMakesItsDirectory: test flows --trace-out a/b/c/x.jsonl,
// where a does not exist, makes a/b/c and writes the trace there, as
// upstream's `test flows` makes it before its first fixture runs (hunt110,
// /tmp/hunt110/p1). Ours refused it ("directory … does not exist; create
// it first"). A file in the way, or a directory that cannot be made, is
// refused before any fixture runs, as upstream's exit 2, naming the
// path and the fix.
func TestTraceOutMakesItsDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFileT(t, filepath.Join(dir, "app.yaml"), sidecarStory)
	writeFileT(t, filepath.Join(dir, "flows", "f.yaml"), "test_kind: flow\nuse_orchestrator: true\nhost_cassette: c.yaml\nturns:\n  - intent: { name: ask }\n    expect_world: { reply: hi }\n")
	writeFileT(t, filepath.Join(dir, "flows", "c.yaml"), "kind: host_cassette\napp_id: sidecar-probe\nmatch_on: [handler]\nepisodes:\n  - id: one\n    match: { handler: host.agent.ask }\n    response: { data: { ok: true, stdout: hi } }\n")
	app := filepath.Join(dir, "app.yaml")

	out := filepath.Join(dir, "a", "b", "c", "x.jsonl")
	if code, stdout, stderr := runCmd(t, "test", "flows", app, "--trace-out", out); code != 0 {
		t.Fatalf("test flows --trace-out into a missing directory: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `"kind":"machine.`) {
		t.Fatalf("trace %s: %v\n%.300s", out, err, b)
	}

	block := filepath.Join(dir, "f")
	writeFileT(t, block, "in the way")
	cases := []struct{ path, want string }{
		{filepath.Join(block, "x.jsonl"), block + " is a file, not a directory; name a file in a directory, or move " + block + " away"},
		{filepath.Join(block, "g", "x.jsonl"), block + " is a file, not a directory"},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases, struct{ path, want string }{"/proc/kitsoki-no-such/x.jsonl", "cannot create its directory /proc/kitsoki-no-such: /proc/kitsoki-no-such: no such file or directory; name a file whose directory exists or can be made"})
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, "test", "flows", app, "--trace-out", c.path)
		if code != exitUsageEnv || !strings.Contains(stderr, "--trace-out "+c.path+": "+c.want) {
			t.Errorf("--trace-out %s: exit %d, stderr %q; want %d and %q", c.path, code, stderr, exitUsageEnv, c.want)
		}
		if strings.Contains(stdout, "passed") {
			t.Errorf("--trace-out %s: the fixtures ran before the refusal:\n%s", c.path, stdout)
		}
	}
	if b, err := os.ReadFile(block); err != nil || string(b) != "in the way" {
		t.Errorf("the file in the way was touched: %q, %v", b, err)
	}

	// Inside the project, a link on the way out of it makes nothing where
	// it leads, even when what it leads to is missing.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	away := filepath.Join(t.TempDir(), "away")
	if err := os.Symlink(filepath.Join(away, "deep"), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, _, stderr := runCmd(t, "test", "flows", "app.yaml", "--trace-out", "out/x.jsonl")
	if code != exitUsageEnv || !strings.Contains(stderr, "symlink leading out of the project root") {
		t.Errorf("--trace-out through a link out of the project: exit %d, %s", code, stderr)
	}
	if _, err := os.Lstat(away); !os.IsNotExist(err) {
		t.Errorf("a directory was made where the link leads: %v", err)
	}
}
