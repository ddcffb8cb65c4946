package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverProfileStdoutEscaped: test merge --coverprofile - prints a
// profile whose paths, states and labels a shard profile from another job
// chose: in every format, control characters and CI workflow markers are
// escaped on stdout (before, LCOV printed ESC and BEL raw and every format
// printed '##[error]' raw, which GitHub and Azure obey mid-line). Cobertura's
// XML cannot hold such a path at all: it is refused, naming the path
// escaped, and nothing is printed.
func TestCoverProfileStdoutEscaped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.json")
	prof := `{"kitsoki_coverage": 1, "files": [{"path": "a\u001b]0;x\u0007 ##[error]y", "items": [{"kind": "arc", "line": 1, "col": 1, "state": "s ##vso[task.setvariable variable=PATH]z", "label": "l\u009b31m", "count": 0}]}]}`
	if err := os.WriteFile(p, []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := []string{"\x1b", "\x07", "\u009b", "##[", "##vso["}
	for _, f := range []string{"json", "lcov"} {
		code, out, errOut := runCmd(t, "test", "merge", p, "--coverprofile", "-", "--cover-format", f)
		if code != exitOK {
			t.Fatalf("%s: %d %s", f, code, errOut)
		}
		for _, b := range bad {
			if strings.Contains(out, b) {
				t.Errorf("%s: stdout holds %q raw:\n%s", f, b, out)
			}
		}
		if !strings.Contains(out, "#[error]y") {
			t.Errorf("%s: the path is not printed:\n%s", f, out)
		}
	}
	code, out, errOut := runCmd(t, "test", "merge", p, "--coverprofile", "-", "--cover-format", "cobertura")
	if code == exitOK || out != "" || !strings.Contains(errOut, "Cobertura XML cannot hold the path") {
		t.Fatalf("cobertura: %d, stdout %q, stderr %s", code, out, errOut)
	}
	for _, b := range bad {
		if strings.Contains(errOut, b) {
			t.Errorf("cobertura: stderr holds %q raw:\n%s", b, errOut)
		}
	}
}
