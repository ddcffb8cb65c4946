package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
)

// TestEvalDiff compares the corpus story's reports: a passing run followed
// by a failing one is a regression (exit 1), the other way round a fix
// (exit 0); changed hashes are warned about and reports of two calls are
// refused. The text names each candidate by its label, as eval run and
// show do (profile[/model][ effort=e], testdata/eval_diff.golden); the
// JSON keeps the key (profile/model/effort) it matches on beside the label
// (testdata/eval_diff_json.golden).
func TestEvalDiff(t *testing.T) {
	dir := filepath.Join("..", "pkg", "eval", "testdata", "pr-refinement", "evals", "reports", "merge_judge")
	passing, failing := filepath.Join(dir, "latest.json"), filepath.Join(dir, "failing.json")
	code, out, errOut := runCmd(t, "eval", "diff", passing, failing)
	if code != 1 {
		t.Errorf("passing -> failing: exit %d\n%s%s", code, out, errOut)
	}
	golden.CheckString(t, filepath.Join("testdata", "eval_diff.golden"), out)
	_, out, _ = runCmd(t, "eval", "diff", "--json", passing, failing)
	golden.CheckString(t, filepath.Join("testdata", "eval_diff_json.golden"), out)
	code, out, _ = runCmd(t, "eval", "diff", failing, passing)
	if code != 0 || !strings.Contains(out, "fixed (fail -> pass)") || !strings.Contains(out, "regressions: none") || strings.Contains(out, "warning:") {
		t.Errorf("failing -> passing: exit %d\n%s", code, out)
	}
	// The same report with another dataset hash and another call.
	b, err := os.ReadFile(passing)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	r["dataset_hash"] = "sha256:1111"
	passing = filepath.Join(tmp, "passing.json")
	writeJSONFile(t, passing, r)
	r["dataset_hash"] = "sha256:0000"
	changed := filepath.Join(tmp, "changed.json")
	writeJSONFile(t, changed, r)
	code, out, _ = runCmd(t, "eval", "diff", passing, changed, "--json")
	var d struct {
		HashesChanged []string `json:"hashes_changed"`
		Regressions   int      `json:"regressions"`
		Candidates    []struct {
			Key, Change string
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != 0 || len(d.HashesChanged) != 1 || d.HashesChanged[0] != "dataset_hash" || len(d.Candidates) != 3 || d.Candidates[0].Change != "same verdict" {
		t.Errorf("changed hash --json: exit %d %v\n%s", code, err, out)
	}
	if code, out, _ := runCmd(t, "eval", "diff", passing, changed); !strings.Contains(out, "warning: dataset_hash changed: the two runs did not measure the same task") || code != 0 {
		t.Errorf("changed hash: exit %d\n%s", code, out)
	}
	r["call"] = "other"
	other := filepath.Join(tmp, "other.json")
	writeJSONFile(t, other, r)
	if code, _, errOut := runCmd(t, "eval", "diff", passing, other); code != 2 || !strings.Contains(errOut, `compare two reports of the same call`) {
		t.Errorf("another call: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "eval", "diff", passing, filepath.Join(tmp, "none.json")); code != 2 || !strings.Contains(errOut, "none.json") {
		t.Errorf("missing report: exit %d %s", code, errOut)
	}
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvalRunSaysWhatChanged checks eval run's line comparing its report
// with the latest.json it replaces.
func TestEvalRunSaysWhatChanged(t *testing.T) {
	_, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	code, out, errOut := runCmd(t, "eval", "run", "--cassette", cas, ds)
	if code != 0 || strings.Contains(out, "since the previous") {
		t.Fatalf("first run: %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "eval", "run", "--cassette", cas, ds)
	if code != 0 || !strings.Contains(out, "since the previous latest.json (") || !strings.Contains(out, "): no verdict changed\n") {
		t.Errorf("same run again: %d\n%s", code, out)
	}
	b, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ds, []byte(strings.ReplaceAll(string(b), "a}", "b}")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd(t, "eval", "run", "--cassette", cas, ds)
	if code != 1 || !strings.Contains(out, "regressed fast, cheap; selected cheap -> none; dataset_hash changed since") {
		t.Errorf("a failing run after a passing one: %d\n%s", code, out)
	}
}
