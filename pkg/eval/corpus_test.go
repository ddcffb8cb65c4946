package eval

import (
	"path/filepath"
	"testing"
)

// The reference's observed vector (trace-eval.md C.5), on an unchanged copy
// of stories/pr-refinement.
func TestHashVectorsPRRefinement(t *testing.T) {
	d, err := LoadDataset("testdata/pr-refinement/evals/merge_judge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := Validate(d, nil)
	if !v.OK() {
		t.Fatalf("corpus dataset invalid: %v", v.Findings)
	}
	want := Hashes{
		Dataset: "sha256:c19a51bd7ca0b2af3c41a62a7f8b42cf2b193849012ab9e7da5d6747c5527063",
		Prompt:  "sha256:2b246de68da28766e47fabbd7ab33584a9aa56457442dba2974d59d0f22e1b3d",
		Schema:  "sha256:e80f67e1121fd7d73a00e6db263e9d059af3c1813ec8a54faaea71ec5fdd0973",
		Toolbox: emptyHash,
	}
	if v.Hashes != want {
		t.Errorf("hashes\n got %+v\nwant %+v", v.Hashes, want)
	}
	cs := v.CallSite
	if cs.Call != "merge_judge" || cs.Handler != "host.agent.decide" || cs.Agent != "judge" || cs.EffectIndex != 2 ||
		cs.StatePath != "merge_awaiting_reply" || cs.SelectionRef != "evals/reports/merge_judge/latest.json" ||
		cs.PromptPath != "prompts/judge_merge.md" || cs.SchemaPath != "schemas/judge_verdict.json" || cs.SchemaName != "judge_verdict.json" {
		t.Errorf("call site %+v", cs)
	}
	st, r, err := DatasetStatus(v)
	if err != nil || st != StatusPassing || filepath.Base(r.Path) != "latest.json" {
		t.Errorf("status %q %v %v", st, r, err)
	}
	for name, want := range map[string]string{"latest.json": StatusPassing, "failing.json": StatusFailing, "stale.json": StatusStale} {
		r, err := LoadReport(filepath.Join(reportsDir(d), name))
		if err != nil {
			t.Fatal(err)
		}
		if got := ReportStatus(r, v.Hashes); got != want {
			t.Errorf("%s: status %q, want %q", name, got, want)
		}
	}
	if ds := CheckSelections(v.Story); len(ds) != 0 {
		t.Errorf("corpus selection should check clean: %v", ds)
	}
}
