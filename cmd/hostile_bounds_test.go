package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateHugeGuardRefusedBeforeParsing: a guard of 100,000 nested
// parentheses (a million kept validate busy for minutes) is a positioned
// error naming the limit, and the report does not repeat the 200 KB guard.
// The guard is twelve times the 16 KiB limit, and the report's bound a
// twenty-fifth of it; pkg/story/expr's TestGuardLimitsRefuseBeforeParsing
// compiles the million-parenthesis guard itself.
func TestValidateHugeGuardRefusedBeforeParsing(t *testing.T) {
	t.Parallel() // in process, its own temp dir
	guard := strings.Repeat("(", 100_000) + "true" + strings.Repeat(")", 100_000)
	dir := writeStory(t, "app:\n  id: g\n  version: 0.1.0\n  title: G\nintents:\n  go:\n    title: Go\n    description: go\n    examples: [\"go\"]\nroot: a\nstates:\n  a:\n    view: \"A\"\n    on:\n      go:\n        - target: b\n          when: \""+guard+"\"\n  b:\n    view: \"B\"\n")
	code, out, errOut := runCmd(t, "validate", filepath.Join(dir, "app.yaml"))
	all := out + errOut
	if code != 1 || !strings.Contains(all, "app.yaml:17:16402: error:") || !strings.Contains(all, "over the limit of 16384") {
		t.Fatalf("exit %d:\n%.2000s", code, all)
	}
	if len(all) > 8<<10 {
		t.Errorf("the report is %d bytes: it repeats the guard", len(all))
	}
}

// TestTestSurvivesHostileViews: nine nested pongo2 for loops over 100
// items and ljust:2000000000 in views, under the real binary: the run ends
// on its own (the render budget stops the loops; the filter refuses the
// width: pkg/story/expr's tests check those messages) with no fatal error,
// each turn failing with the limit it hit, and the process's peak memory
// stays small.
func TestTestSurvivesHostileViews(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	dir := t.TempDir()
	for _, f := range []string{"app.yaml", "flows/loops.yaml", "flows/pad.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "bounds", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "test", filepath.Join(dir, "app.yaml"), "--timeout", "2m") // a hang guard: the budgets end each fixture in ~0.5 s of CPU
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "fatal error") || strings.Contains(string(out), "goroutine ") {
		t.Fatalf("Go runtime failure:\n%.3000s", out)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() > 1 {
		t.Fatalf("kitsoki test: %v\n%.3000s", err, out)
	}
	// both fixtures ran to their verdict: each view was stopped instead of
	// hanging or crashing, and the turn that reached it failed naming the
	// limit (a view the machine step cannot render is turn-fatal)
	text := string(out)
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(text, "0 passed, 2 failed") ||
		!strings.Contains(text, "the turn failed: render state view for \"spin\"") || !strings.Contains(text, "more than 1000000 loop iterations") ||
		!strings.Contains(text, "the turn failed: render state view for \"wide\"") || !strings.Contains(text, "over the limit of 16777216") {
		t.Fatalf("kitsoki test:\n%.3000s", text)
	}
	if rss := maxRSS(cmd.ProcessState); rss > 1<<30 {
		t.Errorf("peak RSS %d bytes", rss)
	}
}

// TestTestSurvivesStarlarkGrowth: Starlark builtins that build, in one
// call, a value far larger than their arguments (join of a list holding
// one 20 MB string a hundred times, replace of each byte by the whole
// string, str/repr/json.encode/fail/print of that list, format and % with
// sixteen such fields, json.indent with deep nesting and a long indent,
// split, list of elems, getattr of replace), under the real binary with
// --sandbox: each is a script error over the per-value limit (into
// on_error, so every fixture passes) and the process's peak memory stays
// small. Before the checks, join alone took over 8 GB. The two attacks
// that grow a value up to the limit before it refuses (extend doubling a
// list, json.decode of a long list) run in pkg/host's
// TestStarlarkMemoryBudget at a lowered limit.
func TestTestSurvivesStarlarkGrowth(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	cmd := exec.Command(bin, "test", "--sandbox", filepath.Join("testdata", "bounds_starlark", "app.yaml"), "--timeout", "2m") // a hang guard
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "fatal error") || strings.Contains(string(out), "goroutine ") {
		t.Fatalf("Go runtime failure:\n%.3000s", out)
	}
	if err != nil || !strings.Contains(string(out), "14 passed, 0 failed") {
		t.Fatalf("kitsoki test: %v\n%.3000s", err, out)
	}
	if rss := maxRSS(cmd.ProcessState); rss > 1<<30 {
		t.Errorf("peak RSS %d bytes", rss)
	}
}
