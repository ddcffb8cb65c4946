package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cassette run replays from --cassette or --host-cassette is named only
// on run's command line, so validate cannot see it (lintgaps37): run
// warns at each episode whose delay: is no duration, which both engines
// drop (conformance cassette-delay-unparsed), and still replays it.
func TestRunWarnsCassetteDelayUnparsed(t *testing.T) {
	ex := filepath.Join("..", "examples", "pr-review")
	data, err := os.ReadFile(filepath.Join(ex, "cassettes", "review.cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "  - id: review_decide\n", "  - id: review_decide\n    delay: 2\n", 1)
	text = strings.Replace(text, "  - id: review_comment\n", "  - id: review_comment\n    delay: 10ms\n", 1)
	cas := filepath.Join(t.TempDir(), "review.cassette.yaml")
	if err := os.WriteFile(cas, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "run", ex, "--cassette", cas, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	want := `kitsoki: warning: --cassette ` + cas + `: episode "review_decide": delay "2" is no duration: the episode answers at once on both engines (a delay that does not parse is dropped); a duration carries its unit (ms, s, m, h, d): write 2s for 2 seconds, or drop delay:`
	if code != 0 || !strings.Contains(stderr, want) || strings.Count(stderr, "is no duration") != 1 {
		t.Fatalf("exit %d, want one warning %q in stderr:\n%s", code, want, stderr)
	}
}
