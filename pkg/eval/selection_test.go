package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

const selectionBlock = `        selection:
          profile: plug
          model: good
          effort: low
          evidence: evals/reports/merge_judge/latest.json`

func loadStory(t *testing.T, dir string) *story.Story {
	t.Helper()
	st, _ := lint.Load(filepath.Join(dir, "app.yaml"), story.Options{AllowUnsetEnv: true})
	if st == nil {
		t.Fatal("story did not load")
	}
	return st
}

func TestCheckSelections(t *testing.T) {
	dsPath := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good, sloppy]", Selection: selectionBlock})
	dir := filepath.Dir(filepath.Dir(dsPath))
	// The story's own selection rule reports the missing evidence, but eval
	// still loads the story: producing that evidence is its job.
	v := mustValidate(t, dsPath)
	latest := filepath.Join(reportsDir(v.Dataset), "latest.json")
	writeRep := func(r *Report) {
		t.Helper()
		if err := writeReport(latest, r); err != nil {
			t.Fatal(err)
		}
	}
	good := Candidate{Profile: "plug", Model: "good", Effort: "low", Pass: true}
	sloppy := Candidate{Profile: "plug", Model: "sloppy", Effort: "low", Pass: false, Rejected: "pass rate 0.50 below 0.90"}
	check := func(want string) []diag.Diagnostic {
		t.Helper()
		ds := CheckSelections(loadStory(t, dir))
		if want == "" {
			if len(ds) != 0 {
				t.Errorf("want clean, got %v", ds)
			}
			return ds
		}
		if len(ds) != 1 || !strings.Contains(ds[0].Message, want) || ds[0].Severity != diag.Error || ds[0].Rule != ruleSelection.ID {
			t.Errorf("want one error containing %q, got %v", want, ds)
		}
		return ds
	}

	appSrc, _ := os.ReadFile(filepath.Join(dir, "app.yaml"))
	lineOf := func(frag string) int {
		for i, l := range strings.Split(string(appSrc), "\n") {
			if strings.Contains(l, frag) {
				return i + 1
			}
		}
		return -1
	}
	evLine, selLine := lineOf("evidence: evals/"), lineOf("profile: plug")
	ds := check(`selection.evidence "evals/reports/merge_judge/latest.json": report not found`)
	if len(ds) == 1 && (filepath.Base(ds[0].File) != "app.yaml" || ds[0].Line != evLine) {
		t.Errorf("evidence finding at %s", ds[0].Pos())
	}

	writeRep(&Report{Kind: "agent_eval_report", Call: "merge_judge", Hashes: v.Hashes, Candidates: []Candidate{good, sloppy}})
	check("")

	os.WriteFile(latest, []byte("{"), 0o644)
	check("does not parse")

	writeRep(&Report{Kind: "agent_eval_report", Call: "merge_judge", Hashes: v.Hashes, Candidates: []Candidate{sloppy}})
	check("selection pins plug/good effort=low but")

	bad := good
	bad.Pass = false
	bad.Rejected = "p95 latency 3000ms above 2000ms"
	writeRep(&Report{Kind: "agent_eval_report", Call: "merge_judge", Hashes: v.Hashes, Candidates: []Candidate{bad}})
	ds = check("did not pass the adherence bar")
	if len(ds) == 1 && (ds[0].Line != selLine || !strings.Contains(ds[0].Message, "p95 latency")) {
		t.Errorf("pin finding %s %q", ds[0].Pos(), ds[0].Message)
	}

	writeRep(&Report{Kind: "agent_eval_report", Call: "merge_judge", Hashes: v.Hashes, Candidates: []Candidate{good}})
	os.WriteFile(filepath.Join(dir, "prompts", "judge.md"), []byte("changed {{ args.pr_id }}\n"), 0o644)
	check("is stale: the prompt changed")

	// a dataset that does not load is named, not silently skipped
	os.WriteFile(dsPath, []byte("kind: agent_eval\ncall: [\n"), 0o644)
	ds = check(`no eval dataset for call "merge_judge" loads`)
	if len(ds) == 1 && !strings.Contains(ds[0].Message, filepath.Base(dsPath)) {
		t.Errorf("the broken dataset is not named: %q", ds[0].Message)
	}

	os.Remove(dsPath)
	check(`no eval dataset for call "merge_judge"`)
}

func TestCheckSelectionsNeedsID(t *testing.T) {
	dsPath := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]", Selection: selectionBlock})
	dir := filepath.Dir(filepath.Dir(dsPath))
	app := filepath.Join(dir, "app.yaml")
	b, _ := os.ReadFile(app)
	os.WriteFile(app, []byte(strings.Replace(string(b), "        id: merge_judge\n", "", 1)), 0o644)
	ds := CheckSelections(loadStory(t, dir))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "has no id:") {
		t.Errorf("%v", ds)
	}
}

// eval check on the corpus copy is clean; pinning the failing candidate in
// a copy fails both the dataset's pin and the story's selection:.
func TestCheckCommandCorpus(t *testing.T) {
	ds, err := Check("testdata/pr-refinement", nil)
	if err != nil || len(ds) != 0 {
		t.Fatalf("corpus: %v %v", ds, err)
	}
	dir := t.TempDir()
	storytest.CopyTree(t, "testdata/pr-refinement", dir)
	for _, f := range []string{"evals/merge_judge.yaml", "rooms/merge.yaml"} {
		p := filepath.Join(dir, f)
		b, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(b), "model: syn:small:text", "model: syn:large:text", 1)), 0o644)
	}
	ds, err = Check(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, d := range ds {
		if !strings.Contains(d.Message, "selection pins synthetic-codex/syn:large:text effort=low but that candidate did not pass") {
			t.Errorf("unexpected %v", d)
		}
		files = append(files, filepath.Base(d.File))
	}
	if strings.Join(files, ",") != "merge_judge.yaml,merge.yaml" {
		t.Errorf("findings in %v", files)
	}
	if _, err := Check(filepath.Join(dir, "nope"), nil); err == nil {
		t.Error("missing dir accepted")
	}
}
