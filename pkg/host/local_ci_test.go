package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths relative to dir) into dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLocalCI runs the real go on a module written for it: a failing test
// and a passing one, a failing subtest, and output that only looks like
// go test -v's. passed/failed count the lines that, trimmed, start with
// --- PASS / --- FAIL, as upstream (a plain run counts failures only).
func TestLocalCI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a module")
	}
	wd := t.TempDir()
	writeTree(t, wd, map[string]string{
		"m/go.mod": "module m\n\ngo 1.21\n",
		"m/a_test.go": `package m

import (
	"fmt"
	"testing"
)

func TestPass(t *testing.T) {}

func TestFail(t *testing.T) {
	fmt.Println("--- PASS: printed")
	fmt.Println("  --- PASS: printed indented")
	fmt.Println("x--- PASS: not at a line start")
	t.Run("sub", func(t *testing.T) { t.Error("e") })
}
`,
		"m/b.go":     "package m\n",
		"bad/go.mod": "module bad\n\ngo 1.21\n",
		"bad/b.go":   "package bad\n\nfunc F() { x }\n",
	})
	env := Env{WorkDir: wd}
	h := localCIHandler{}
	d := mustOK(t, h, env, map[string]any{"op": "run_tests", "workdir": "m"})
	if d["ok"] != false || d["passed"] != 2 || d["failed"] != 2 || d["junit"] != "" || !strings.Contains(d["log"].(string), "--- FAIL: TestFail/sub") {
		t.Errorf("run_tests: %v", d)
	}
	d = mustOK(t, h, env, map[string]any{"op": "run_tests", "workdir": "m", "target": "-run=TestPass"})
	if d["ok"] != true || d["passed"] != 0 || d["failed"] != 0 {
		t.Errorf("run_tests -run=TestPass: %v", d)
	}
	d = mustOK(t, h, env, map[string]any{"op": "build", "workdir": filepath.Join(wd, "bad")})
	if d["ok"] != false || d["log"] != "# bad\n./b.go:3:12: undefined: x\n" || len(d) != 2 {
		t.Errorf("build bad: %v", d)
	}
	d = mustOK(t, h, env, map[string]any{"op": "build", "workdir": "m"})
	if d["ok"] != true || d["log"] != "" {
		t.Errorf("build m: %v", d)
	}
	wantDomainErr(t, h, env, map[string]any{"op": "build", "workdir": "nope"}, "missing workdir", "ci.build: exec: chdir nope: no such file or directory")
	wantDomainErr(t, h, env, map[string]any{"op": "build", "workdir": "m/b.go"}, "file workdir", "ci.build: exec: fork/exec ")
	wantDomainErr(t, h, env, map[string]any{"op": "remote_status"}, "remote_status", "host.local: remote_status not supported by local CI")
	wantDomainErr(t, h, env, map[string]any{"op": uint64(1)}, "numeric op", "host.local: op argument is required")
	wantDomainErr(t, h, env, map[string]any{"op": "lint"}, "unknown op", `host.local: unknown op "lint"`)
	// go missing from PATH is found before the directory is entered
	t.Setenv("PATH", t.TempDir())
	wantDomainErr(t, h, env, map[string]any{"op": "run_tests", "workdir": "nope"}, "no go", `ci.run_tests: exec: exec: "go": executable file not found in $PATH`)
}

// A target that go would read as an option acting outside the tests
// (-toolexec runs a program for every compile, -o and -coverprofile write
// where they say) is refused before go starts: the program it names never
// runs and nothing is written. go test's own flags that only choose the
// tests (-run=..., -v) still pass, as upstream.
func TestLocalCITargetNeverAnOption(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a module")
	}
	wd := t.TempDir()
	writeTree(t, wd, map[string]string{
		"m/go.mod":    "module m\n\ngo 1.21\n",
		"m/a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestPass(t *testing.T) {}\n",
	})
	marker := filepath.Join(t.TempDir(), "ran")
	tool := filepath.Join(t.TempDir(), "tool.sh")
	writeTree(t, filepath.Dir(tool), map[string]string{"tool.sh": "#!/bin/sh\necho ran >> " + marker + "\nexec \"$@\"\n"})
	if err := os.Chmod(tool, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "cover.out")
	env, h := Env{WorkDir: wd}, localCIHandler{}
	for _, target := range []string{"-toolexec=" + tool, "--toolexec=" + tool, "-exec=" + tool, "-coverprofile=" + out, "-o=" + out, "-ldflags=-extld=" + tool} {
		res, err := call(t, h, env, map[string]any{"op": "run_tests", "workdir": "m", "target": target})
		if err != nil || !strings.Contains(res.Error, "is a go option that reaches outside the tests") || !strings.Contains(res.Error, target) {
			t.Errorf("target %q: %+v %v; want the option refused by name", target, res, err)
		}
	}
	for _, p := range []string{marker, out} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists: an option reached go", p)
		}
	}
	// each passes the same check; one goes through go end to end
	// (TestLocalCI runs -run=TestPass)
	for _, target := range []string{"-run=TestPass", "--v", "-count=1", "./..."} {
		if !SafeGoTarget(target) {
			t.Errorf("target %q refused", target)
		}
	}
	if d := mustOK(t, h, env, map[string]any{"op": "run_tests", "workdir": "m", "target": "--v"}); d["ok"] != true {
		t.Errorf("target --v: %v", d)
	}
}
