package eval

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestLatestReportOfEachDataset: two datasets of call "gate" share
// reports/gate/. latest.json is the dataset's that its eval names;
// another dataset reads its own newest report; a report naming no
// dataset file (eval: gate, as reports before eval named the file, or
// empty) is every dataset's.
func TestLatestReportOfEachDataset(t *testing.T) {
	dir := t.TempDir()
	ds := "kind: agent_eval\napp: ../app.yaml\ncall: gate\ncomparator: exact\nexamples: [{name: a, expect: {x: 1}}]\n"
	rep := func(eval, at string) string {
		return `{"kind": "agent_eval_report", "eval": "` + eval + `", "call": "gate", "generated_at": "` + at + `"}`
	}
	storytest.WriteTree(t, dir, map[string]string{
		"evals/deploy_gate.yaml":                    ds,
		"evals/gate_min.yaml":                       ds,
		"evals/reports/gate/latest.json":            rep("deploy_gate", "2026-01-03T00:00:00Z"),
		"evals/reports/gate/20260101T000000Z.json":  rep("gate_min", "2026-01-01T00:00:00Z"),
		"evals/reports/gate/20260102T000000Z.json":  rep("gate_min", "2026-01-02T00:00:00Z"),
		"evals/reports/gate/20251231T000000Z.json":  rep("gate", "2025-12-31T00:00:00Z"),
		"evals/reports/other/20260101T000000Z.json": rep("", "2026-01-01T00:00:00Z"),
	})
	for name, want := range map[string]string{"deploy_gate": "latest.json", "gate_min": "20260102T000000Z.json"} {
		d, err := LoadDataset(filepath.Join(dir, "evals", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := latestReport(d)
		if err != nil || r == nil || filepath.Base(r.Path) != want {
			t.Errorf("%s: latest report %v (%v), want %s", name, r, err, want)
		}
		if other := LatestOfOther(d); (other != "") != (name == "gate_min") {
			t.Errorf("%s: LatestOfOther = %q", name, other)
		}
	}
	// With no file of their own, reports naming the call (or nothing)
	// are the dataset's: the newest one, latest.json gone.
	storytest.WriteTree(t, dir, map[string]string{"evals/reports/gate/latest.json": rep("gate", "2026-02-01T00:00:00Z")})
	d, err := LoadDataset(filepath.Join(dir, "evals", "gate_min.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := latestReport(d); err != nil || r == nil || filepath.Base(r.Path) != "latest.json" {
		t.Errorf("gate_min with a call-named latest.json: %v (%v)", r, err)
	}
}
