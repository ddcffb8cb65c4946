package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
)

// TestCassetteIncludesBounded: a cassette naming one file by !include on
// many lines is capped as a whole (safefile.Cassette), not per file: a
// small cassette naming one large file on many lines grew without bound
// before. The error names the cassette, the line and the cap.
func TestCassetteIncludesBounded(t *testing.T) {
	t.Parallel() // in process, its own temp dir; measures nothing of the process
	dir := t.TempDir()
	big := strings.Repeat("\x01", 1<<20)
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	n := int(safefile.Cassette>>20) + 8
	var b strings.Builder
	b.WriteString("kind: host_cassette\nepisodes:\n")
	for range n {
		b.WriteString("  - id: e\n    agent:\n      prompt: !include big.txt\n")
	}
	p := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := agent.LoadCassette(p)
	if err == nil || !strings.Contains(err.Error(), "c.yaml") || !strings.Contains(err.Error(), "line ") || !strings.Contains(err.Error(), "256 MiB") {
		t.Fatalf("LoadCassette: %v; want an error naming the cassette, the line and the 256 MiB cap", err)
	}
}

// TestCassetteIncludeTellsNothingOutside: an !include that leads outside
// the cassette's directory is refused with the same words whether the
// file outside exists or not (before, ../ to a missing file said 'no such
// file or directory' and to a present one 'resolves outside', telling a
// fixture what the CI machine holds).
func TestCassetteIncludeTellsNothingOutside(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "cas")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(top, "present.json"), []byte(`{"a":1}`), 0o644)
	os.Symlink(filepath.Join(top, "present.json"), filepath.Join(dir, "live.json"))
	os.Symlink(filepath.Join(top, "absent.json"), filepath.Join(dir, "dead.json"))
	msg := func(inc string) string {
		src := "kind: host_cassette\nepisodes:\n  - id: i\n    agent:\n      response: !include " + inc + "\n"
		_, err := agent.ParseCassette(filepath.Join(dir, "c.yaml"), []byte(src))
		if err == nil {
			t.Fatalf("%s: included", inc)
		}
		return strings.ReplaceAll(err.Error(), inc, "X")
	}
	want := msg("../present.json")
	for _, inc := range []string{"../absent.json", "live.json", "dead.json", "../../../etc/passwd", "../../../nonexistent/x"} {
		if got := msg(inc); got != want {
			t.Errorf("!include %s: %q; !include ../present.json: %q (the words tell whether the file outside exists)", inc, got, want)
		}
	}
}
