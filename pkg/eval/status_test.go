package eval

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/refusal"
)

// A run ends in a finding when no candidate passed (stale is not
// passing); a shard's part is judged only by the merge of all parts.
func TestVerdict(t *testing.T) {
	cur := Hashes{Prompt: "sha256:p"}
	v := &Validation{Dataset: &Dataset{Call: "pick"}, Hashes: cur}
	pass, fail := []Candidate{{Pass: true}}, []Candidate{{Pass: false}}
	for _, c := range []struct {
		name string
		r    *Report
		want string
	}{
		{"passing", &Report{Candidates: pass}, ""},
		{"failing", &Report{Candidates: fail}, "eval pick: no candidate passed the adherence bar"},
		{"stale", &Report{Hashes: Hashes{Prompt: "sha256:old"}, Candidates: pass}, "eval pick: no candidate passed the adherence bar"},
		{"failing shard", &Report{Candidates: fail, Run: &RunInfo{Shard: "1/2"}}, ""},
		{"failing merge", &Report{Candidates: fail, Run: &RunInfo{}}, "eval pick: no candidate passed the adherence bar"},
	} {
		got := ""
		if err := v.Verdict(c.r); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReportStatus(t *testing.T) {
	cur := Hashes{Dataset: "sha256:a", Prompt: "sha256:p", Schema: "sha256:s", Toolbox: emptyHash}
	pass := []Candidate{{Pass: false}, {Pass: true}}
	fail := []Candidate{{Pass: false}}
	for _, c := range []struct {
		name string
		r    *Report
		want string
	}{
		{"none", nil, StatusUnmeasured},
		{"no hashes passing", &Report{Candidates: pass}, StatusPassing},
		{"no hashes failing", &Report{Candidates: fail}, StatusFailing},
		{"no candidates", &Report{}, StatusFailing},
		{"same hashes", &Report{Hashes: cur, Candidates: pass}, StatusPassing},
		{"prompt changed", &Report{Hashes: Hashes{Prompt: "sha256:old"}, Candidates: pass}, StatusStale},
		{"toolbox changed", &Report{Hashes: Hashes{Toolbox: "sha256:old"}, Candidates: fail}, StatusStale},
		{"report hash only on one side", &Report{Hashes: Hashes{Dataset: "sha256:a"}, Candidates: pass}, StatusPassing},
	} {
		if got := ReportStatus(c.r, cur); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// An unknown current hash never makes a report stale.
	if got := ReportStatus(&Report{Hashes: Hashes{Prompt: "sha256:x"}, Candidates: pass}, Hashes{}); got != StatusPassing {
		t.Errorf("unknown current hash: %q", got)
	}
	if f := staleFields(Hashes{Dataset: "x", Schema: "y"}, Hashes{Dataset: "z", Schema: "y"}); len(f) != 1 || f[0] != "dataset" {
		t.Errorf("stale fields %v", f)
	}
}

// Without latest.json the greatest generated_at wins; latest.json always
// wins when present; reports that do not parse are skipped.
func TestLatestReport(t *testing.T) {
	dir := t.TempDir()
	d := &Dataset{Path: filepath.Join(dir, "x.yaml"), Call: "c"}
	if r, err := latestReport(d); r != nil || err != nil {
		t.Fatalf("no reports: %v %v", r, err)
	}
	rd := reportsDir(d)
	os.MkdirAll(rd, 0o755)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(rd, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", `{"kind":"agent_eval_report","generated_at":"2026-01-02T00:00:00Z","candidates":[]}`)
	write("b.json", `{"kind":"agent_eval_report","generated_at":"2026-03-01T00:00:00Z","candidates":[{"pass":true}]}`)
	write("c.json", `not json`)
	r, err := latestReport(d)
	if err != nil || filepath.Base(r.Path) != "b.json" {
		t.Fatalf("latest %v %v", r, err)
	}
	write("latest.json", `{"kind":"agent_eval_report","generated_at":"2020-01-01T00:00:00Z","candidates":[]}`)
	if r, _ := latestReport(d); filepath.Base(r.Path) != "latest.json" {
		t.Errorf("latest.json did not win: %s", r.Path)
	}
	write("latest.json", `{`)
	if _, err := latestReport(d); err == nil || !strings.Contains(err.Error(), "latest.json") {
		t.Errorf("broken latest.json: %v", err)
	}
}

func TestWriteFileAtomicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "r.json")
	if err := writeReport(p, &Report{Kind: "agent_eval_report"}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 || ents[0].Name() != "r.json" {
		t.Errorf("dir holds %v", ents)
	}
	r, err := LoadReport(p)
	if err != nil || r.Kind != "agent_eval_report" {
		t.Errorf("%v %v", r, err)
	}
}

// The corpus reports round-trip through the Report type without losing a
// field (the Go type covers the reference's shape).
func TestReportRoundTrip(t *testing.T) {
	for _, name := range []string{"latest.json", "failing.json", "stale.json"} {
		p := filepath.Join("testdata/pr-refinement/evals/reports/merge_judge", name)
		b, _ := os.ReadFile(p)
		r, err := parseReport(p, b)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := r.Marshal()
		var a, z any
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(out, &z)
		if !jsonEqual(a, z) {
			t.Errorf("%s does not round-trip:\n%s", name, out)
		}
	}
}

func FuzzParseReport(f *testing.F) {
	b, _ := os.ReadFile("testdata/pr-refinement/evals/reports/merge_judge/latest.json")
	f.Add(b)
	f.Add([]byte(`{"kind":"agent_eval_report","candidates":[{"pass":true,"p95_latency_ms":1}],"calls":[{"candidate":-1}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"kind":"agent_eval_report","candidates":[{"pass":"yes"}],"calls":{}}`))
	f.Add([]byte(`{"kind":"agent_eval_report","call":"a\nb","candidates":[{"model":1e400}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseReport("fuzz.json", data)
		if err != nil {
			// a refusal names the report on one line, in JSON's terms
			refusal.Names(t, data, err.Error(), "fuzz.json")
			return
		}
		_ = ReportStatus(r, Hashes{Dataset: "sha256:x"})
		if _, err := RenderHTML(r); err != nil {
			t.Fatal(err)
		}
	})
}

// Files that are read but do not parse are ErrSyntax (a finding), with a
// message in user terms: no Go type names, the position of a JSON syntax
// error, and the kind a report must have.
func TestParseErrorsAreSyntax(t *testing.T) {
	cases := []struct {
		data, want string
	}{
		{``, "r.json: empty file"},
		{`[]`, "r.json: line 1, column 1: the top level: expected an object, got a list"},
		{`{}`, `r.json: kind is "", want "agent_eval_report"`},
		{`{"kind":"agent_eval"}`, `kind is "agent_eval", want "agent_eval_report"`},
		{"{\n  \"kind\": x\n}", "r.json: line 2, column 11: invalid character 'x'"},
		{`{"kind":"agent_eval_report","candidates":3}`, `line 1, column 42: candidates: expected a list, got a number`},
		// a float past float64 is of the right type, and out of range
		{`{"kind":"agent_eval_report","candidates":[{"pass_k_rate":1e400}]}`, `candidates.pass_k_rate: the number 1e400 is out of range of a 64-bit float`},
		{`{"kind":"agent_eval_report","failure_samples":[{"expect":{"a":[-2e308]}}]}`, `failure_samples.expect: the number -2e308 is out of range`},
	}
	for _, tc := range cases {
		_, err := parseReport("r.json", []byte(tc.data))
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseReport(%q) = %v, want ErrSyntax containing %q", tc.data, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "eval.Report") {
			t.Errorf("Go type name in %v", err)
		}
	}
	for data, want := range map[string]string{"": "d.yaml: empty file", "a: [": "d.yaml: parse YAML:", "- x": "d.yaml:1:1: a dataset must be a YAML mapping"} {
		_, err := parseDataset("d.yaml", "d.yaml", []byte(data))
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), want) {
			t.Errorf("parseDataset(%q) = %v, want ErrSyntax containing %q", data, err, want)
		}
	}
	if _, err := LoadDataset(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "no such file or directory; give the path of an evals/*.yaml file") {
		t.Errorf("missing dataset: %v", err)
	}
}
