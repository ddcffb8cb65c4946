package cmd

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The traces kitsoki writes (run's .kitsoki/sessions/, test --trace-dir and
// --trace-out) hold the world and command output: only their owner reads
// them, as their agent-prompts/ files.
func TestTracesOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX modes")
	}
	proj, _ := confineProject(t)
	writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
	t.Chdir(proj)
	if code, stdout, stderr := runCmd(t, "run", "app.yaml", "--intent", "go"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCmd(t, "test", "flows", "app.yaml", "--trace-dir", "td", "--trace-out", "last.jsonl"); code != 0 {
		t.Fatalf("test: exit %d\n%s%s", code, stdout, stderr)
	}
	sessions, _ := filepath.Glob(filepath.Join(proj, ".kitsoki", "sessions", "*.jsonl"))
	perFixture, _ := filepath.Glob(filepath.Join(proj, "td", "*.jsonl"))
	if len(sessions) != 1 || len(perFixture) != 1 {
		t.Fatalf("traces: sessions %v, --trace-dir %v", sessions, perFixture)
	}
	for _, p := range []string{sessions[0], perFixture[0], filepath.Join(proj, "last.jsonl")} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := st.Mode().Perm(); m&0o077 != 0 {
			t.Errorf("%s: mode %v, readable by others", p, m)
		}
	}
}
