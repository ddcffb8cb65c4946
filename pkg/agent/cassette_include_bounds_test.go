package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

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
