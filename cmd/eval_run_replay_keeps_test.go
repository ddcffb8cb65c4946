package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalRunReplayKeepsLiveEvidence: an offline eval run --cassette of
// the pinned dataset itself keeps reports/<call>/latest.json, the live
// agents' evidence the pin names, and writes its timestamped report
// alone; eval check still passes. Before, the replay replaced latest.json
// and eval check went from passing to two selection-evidence errors.
// A second replay, with latest.json now a replay's, replaces it.
func TestEvalRunReplayKeepsLiveEvidence(t *testing.T) {
	t.Parallel() // in process, its own temp dirs
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{"cassette.yaml": evCassetteOnlyCassette})
	latest := filepath.Join(dir, "evals", "reports", "merge_judge", "latest.json")
	before, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "evals", "merge_judge.yaml")
	run := func() (int, string, string) {
		return runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), ds)
	}
	_, out, errOut := run()
	if !strings.Contains(out, "kept "+latest+": it is evidence from live agents and this --cassette run is a replay") {
		t.Errorf("eval run does not say it kept latest.json:\n%s%s", out, errOut)
	}
	if strings.Contains(out, "since the previous") {
		t.Errorf("a replay that replaced nothing compares with a previous latest.json:\n%s", out)
	}
	if wrote := wroteReports(out); len(wrote) != 1 || wrote[0] == latest {
		t.Errorf("want the timestamped report alone, got %q", wrote)
	}
	if after, _ := os.ReadFile(latest); string(after) != string(before) {
		t.Errorf("the replay replaced the live evidence:\n%s", after)
	}
	if code, out, errOut := runCmd(t, "eval", "check", dir); code != 0 {
		t.Errorf("eval check after a replay: %d\n%s%s", code, out, errOut)
	}
	// latest.json of a replay is no live evidence: the next replay replaces it.
	storytest.WriteTree(t, dir, map[string]string{
		"evals/reports/merge_judge/latest.json": strings.Replace(string(before), `"generated_at"`, `"run": {"mode": "cassette", "jobs": 1, "total_jobs": 1},`+"\n  "+`"generated_at"`, 1),
	})
	_, out, errOut = run()
	if wrote := wroteReports(out); len(wrote) != 2 || wrote[1] != latest || strings.Contains(out, "kept ") {
		t.Errorf("a replay over a replay's latest.json: want it replaced, got %q\n%s%s", wrote, out, errOut)
	}
}
