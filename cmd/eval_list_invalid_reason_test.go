package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalListSaysWhyInvalid: a dataset that loads but does not validate
// is listed invalid, as upstream lists it (exit 0), with a WARN line
// saying why: a cassette kept under evals/*.yaml is said to be one, with
// where to keep it; another file gets its first error and the count.
// Before, both rows said invalid and nothing said why. A cassette below
// evals/ is not listed.
func TestEvalListSaysWhyInvalid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "story")
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{
		"evals/judge.cassette.yaml": evCassetteOnlyCassette,
		"evals/half.yaml":           "kind: agent_eval\napp: ../app.yaml\n",
		"evals/cassettes/kept.yaml": evCassetteOnlyCassette,
	})
	ev := filepath.Join(dir, "evals")
	code, out, errOut := runCmd(t, "eval", "list", dir)
	for _, want := range []string{
		"WARN: " + filepath.Join(ev, "judge.cassette.yaml") + ": listed invalid: judge.cassette.yaml is a cassette (kind: host_cassette), not an eval dataset",
		"keep it in a folder below evals/ (evals/cassettes/, say) to leave it out of the list\n",
		"WARN: " + filepath.Join(ev, "half.yaml") + ": listed invalid: call is required (",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != exitOK || !strings.Contains(out, "\tinvalid\t\t\t"+filepath.Join(ev, "judge.cassette.yaml")) || strings.Contains(out, "kept.yaml") {
		t.Errorf("exit %d, want 0; stdout:\n%s", code, out)
	}
}
