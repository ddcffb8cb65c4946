package eval

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

// A story, a cassette or a report given where a dataset goes gets
// upstream's "kind must be agent_eval" followed by one error saying what
// the file is and what to give instead, and none of the unknown-key
// warnings and type errors of reading it as a dataset (a story's app.yaml
// gave 17 lines, none saying it was a story). A dataset with a misspelt
// kind keeps its other findings.
func TestOtherKindOfFileSaysWhatItIs(t *testing.T) {
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml":        "app: {id: s, version: 0.1.0}\nintents: {go: {description: go}}\nroot: s\nstates:\n  s: {terminal: true}\n",
		"cas.yaml":        "kind: host_cassette\napp_id: s\nepisodes: []\n",
		"report.yaml":     "kind: agent_eval_report\neval: pick\n",
		"evals/typo.yaml": "kind: agent_evals\napp: ../app.yaml\ncall: pick\ncomparator: exact\nexampels: []\n",
	})
	for name, want := range map[string]string{
		"app.yaml":    "app.yaml is a story (it has states:), not an eval dataset: give a dataset of one of its calls (kind: agent_eval), e.g. evals/<call>.yaml beside it",
		"cas.yaml":    "cas.yaml is a cassette (kind: host_cassette), not an eval dataset: pass it to eval run as --cassette FILE",
		"report.yaml": "report.yaml is an eval report (kind: agent_eval_report), not an eval dataset: read it with kitsoki eval show FILE",
	} {
		d, err := LoadDataset(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		fs := Validate(d, nil).Findings
		if len(fs) < 2 || fs[0].Message != "kind must be agent_eval" || !strings.HasPrefix(fs[1].Message, want) || fs[1].Severity != diag.Error {
			t.Errorf("%s: findings %v", name, fs)
		}
		for _, f := range fs {
			if strings.Contains(f.Message, "unknown key") || strings.Contains(f.Message, "expected a string") {
				t.Errorf("%s: a finding of reading it as a dataset: %s", name, f.Message)
			}
		}
	}
	d, err := LoadDataset(filepath.Join(dir, "evals", "typo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range Validate(d, nil).Findings {
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "kind must be agent_eval") || !strings.Contains(all, `unknown key "exampels"`) || strings.Contains(all, "not an eval dataset") {
		t.Errorf("misspelt kind: findings\n%s", all)
	}
}
