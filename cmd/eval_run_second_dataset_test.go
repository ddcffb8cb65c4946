package cmd

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalRunSecondDatasetKeepsEvidence: eval run of a second dataset of
// a call (merge_judge_min.yaml beside merge_judge.yaml) keeps
// reports/<call>/latest.json, the first dataset's evidence that the pin
// names, and writes its own timestamped report, which eval list then
// reads as that dataset's latest. Before, the run replaced latest.json
// and eval check called the pin's evidence stale.
func TestEvalRunSecondDatasetKeepsEvidence(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{
		"evals/merge_judge_min.yaml": evCassetteOnlyDataset,
		"cassette.yaml":              evCassetteOnlyCassette,
	})
	latest := filepath.Join(dir, "evals", "reports", "merge_judge", "latest.json")
	before, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "evals", "merge_judge_min.yaml")
	code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), ds)
	if code != 0 {
		t.Fatalf("eval run: %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "kept "+latest+": it is the report of merge_judge, another dataset of call merge_judge") {
		t.Errorf("eval run does not say it kept latest.json:\n%s", out)
	}
	wrote := wroteReports(out)
	if len(wrote) != 1 || filepath.Dir(wrote[0]) != filepath.Dir(latest) || wrote[0] == latest {
		t.Fatalf("want one timestamped report beside latest.json, got %q", wrote)
	}
	if after, _ := os.ReadFile(latest); string(after) != string(before) {
		t.Errorf("latest.json was replaced by the second dataset's run:\n%s", after)
	}
	if b, _ := os.ReadFile(wrote[0]); !strings.Contains(string(b), `"eval": "merge_judge_min"`) {
		t.Errorf("the report does not name its dataset:\n%s", b)
	}
	// A second run compares with this dataset's report, not latest.json.
	code, out, errOut = runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "cassette.yaml"), ds)
	if code != 0 || !strings.Contains(out, "since the previous "+filepath.Base(wrote[0])+" (") {
		t.Errorf("second run of the dataset: %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCmd(t, "eval", "check", dir); code != 0 {
		t.Errorf("eval check after the second dataset's run: %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "eval", "list", dir)
	for _, want := range []string{"merge_judge\tpassing\tenum\tsynthetic-codex/syn:small:text\t", "merge_judge\tpassing\tenum\t\t" + ds} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("eval list lacks %q: %d\n%s", want, code, out)
		}
	}
}

// TestEvalCheckPinAgainstItsEvidenceDataset: with a second dataset of the
// call that sorts first (a_quick.yaml), the pin is checked against the
// dataset its evidence report measured (merge_judge.yaml, by the
// report's eval), not the first found. Before, its dataset hash was
// compared with a_quick.yaml's and the evidence read stale.
func TestEvalCheckPinAgainstItsEvidenceDataset(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, evCorpus, dir)
	full, err := os.ReadFile(filepath.Join(dir, "evals", "merge_judge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	latest := filepath.Join(dir, "evals", "reports", "merge_judge", "latest.json")
	rep, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	hashed := strings.Replace(string(rep), `"generated_at"`, fmt.Sprintf(`"dataset_hash": "sha256:%x",`+"\n  "+`"generated_at"`, sha256.Sum256(full)), 1)
	storytest.WriteTree(t, dir, map[string]string{
		"evals/a_quick.yaml":                    evCassetteOnlyDataset,
		"evals/reports/merge_judge/latest.json": hashed,
	})
	if code, out, errOut := runCmd(t, "eval", "check", dir); code != 0 {
		t.Errorf("eval check: %d\n%s%s", code, out, errOut)
	}
}

// wroteReports are the report files eval run's "wrote FILE" lines name.
func wroteReports(out string) []string {
	var files []string
	for _, m := range regexp.MustCompile(`(?m)^wrote (.*\.json)$`).FindAllStringSubmatch(out, -1) {
		files = append(files, m[1])
	}
	return files
}
