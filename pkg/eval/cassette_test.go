package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const evalCassette = `kind: host_cassette
app_id: evalrun
episodes:
  - id: m1_refine_2
    replay: any
    match: {handler: agent.cass-a, model: m1, args: {pr_id: "2", merge_sha: ""}}
    agent: {verb: decide, model: m1, duration_ms: 300, cost_usd: 0.001, response: '{"intent":"refine","confidence":0.9}'}
  - id: m1_refine_4
    replay: any
    match: {handler: agent.cass-a, model: m1, args: {pr_id: "4", merge_sha: ""}}
    agent: {verb: decide, model: m1, duration_ms: 310, cost_usd: 0.001, response: '{"intent":"refine","confidence":0.9}'}
  - id: m1_accept
    replay: any
    match: {handler: agent.cass-a, model: m1}
    agent: {verb: decide, model: m1, duration_ms: 200, cost_usd: 0.001, response: '{"intent":"accept","confidence":0.9}'}
  - id: m2_accept
    replay: any
    match: {handler: agent.cass-a, model: m2}
    agent: {verb: decide, model: m2, duration_ms: 100, cost_usd: 0.0001, response: '{"intent":"accept","confidence":0.7}'}
  - id: b_error
    replay: any
    match: {handler: agent.cass-b}
    agent: {verb: decide, error: "backend exploded"}
`

func cassetteFixture(t *testing.T) (*Validation, string) {
	t.Helper()
	path := writeFixture(t, fixture{Profiles: "cass-a, cass-b", Models: "    cass-a: [m1, m2]", Repeat: 3})
	v := mustValidate(t, path)
	cas := filepath.Join(filepath.Dir(path), "eval.cassette.yaml")
	if err := os.WriteFile(cas, []byte(evalCassette), 0o644); err != nil {
		t.Fatal(err)
	}
	return v, cas
}

var fixedNow = func() time.Time { return time.Date(2026, 6, 22, 0, 0, 0, 0, time.UTC) }

// TestRunCassetteDeterministic: two offline runs give byte-identical
// reports (generated_at is fixed by Now; nothing else varies).
func TestRunCassetteDeterministic(t *testing.T) {
	v, cas := cassetteFixture(t)
	var out [2][]byte
	for i := range out {
		rep, err := Run(context.Background(), v, RunOptions{Cassette: cas, Concurrency: 8, Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		if out[i], err = rep.Marshal(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatalf("cassette runs differ:\n%s\n---\n%s", out[0], out[1])
	}
	rep, _ := parseReport("r", out[0])
	if rep.Run.Mode != "cassette" || rep.Run.WallMS != 0 || rep.Run.Concurrency != 1 {
		t.Errorf("run info %+v", rep.Run)
	}
	if len(rep.Candidates) != 3 {
		t.Fatalf("candidates %+v", rep.Candidates)
	}
	m1, m2, b := rep.Candidates[0], rep.Candidates[1], rep.Candidates[2]
	if !m1.Pass || m1.ComparatorPassRate != 1 || i64(m1.P50LatencyMS) != 200 || i64(m1.P95LatencyMS) != 310 || f64(m1.AvgCostUSD) != 0.001 {
		t.Errorf("m1 %+v", m1)
	}
	if m2.Pass || m2.ComparatorPassRate != 0.5 || f64(m2.PassKRate) != 0.5 || i64(m2.P95LatencyMS) != 100 {
		t.Errorf("m2 %+v", m2)
	}
	if b.Pass || b.ContractConformanceRate != 0 || b.SchemaValidRate != 0 || b.ExamplesRun != 12 || b.Model != "" {
		t.Errorf("cass-b %+v", b)
	}
	if rep.Decision.SelectedModel != "m1" {
		t.Errorf("decision %+v", rep.Decision)
	}
}

// TestShardMerge: three shards merged equal the unsharded run.
func TestShardMerge(t *testing.T) {
	v, cas := cassetteFixture(t)
	full, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	var shards []*Report
	jobs := 0
	for i := 1; i <= 3; i++ {
		r, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow, Shard: i, Shards: 3})
		if err != nil {
			t.Fatal(err)
		}
		jobs += r.Run.Jobs
		// Round-trip through the file format, as eval merge reads them.
		b, _ := r.Marshal()
		if r, err = parseReport("shard", b); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, r)
	}
	if jobs != 36 || shards[0].Run.TotalJobs != 36 {
		t.Fatalf("shards ran %d of %d jobs", jobs, shards[0].Run.TotalJobs)
	}
	merged, err := Merge(v, []*Report{shards[2], shards[0], shards[1]})
	if err != nil {
		t.Fatal(err)
	}
	enc := func(x any) string { b, _ := json.Marshal(x); return string(b) }
	if enc(merged.Candidates) != enc(full.Candidates) || enc(merged.Decision) != enc(full.Decision) || enc(merged.FailureSamples) != enc(full.FailureSamples) {
		t.Errorf("merged differs from full:\n%s\n%s", enc(merged.Candidates), enc(full.Candidates))
	}
	if len(merged.Calls) != 0 {
		t.Errorf("merged report keeps %d raw calls", len(merged.Calls))
	}
	if _, err := Merge(v, shards[:2]); err == nil {
		t.Error("merge with a missing shard succeeded")
	}
	if _, err := Merge(v, []*Report{shards[0], shards[0], shards[1]}); err == nil {
		t.Error("merge with a duplicate shard succeeded")
	}
	if _, err := Merge(v, []*Report{full}); err == nil {
		t.Error("merge of a non-shard report succeeded")
	}
	bad := *shards[1]
	bad.Hashes.Dataset = "sha256:other"
	if _, err := Merge(v, []*Report{shards[0], &bad, shards[2]}); err == nil {
		t.Error("merge across dataset versions succeeded")
	}
}

// TestRunJudgeOffline: the judge comparator is answered from the cassette
// too, so a judged eval runs offline and deterministically.
func TestRunJudgeOffline(t *testing.T) {
	path := writeFixture(t, fixture{Profiles: "cass-a", Models: "    cass-a: [m1]", Repeat: 1, Comparator: "{kind: judge, agent: agent.judge}"})
	v, err := LoadDataset(path)
	if err != nil {
		t.Fatal(err)
	}
	val := Validate(v, nil)
	cas := filepath.Join(filepath.Dir(path), "judge.cassette.yaml")
	judge := `
  - id: judge_pass
    replay: any
    match: {handler: agent.judge, actual: {intent: refine, confidence: 0.9}}
    agent: {verb: decide, response: '{"verdict":"pass"}'}
  - id: judge_fail
    replay: any
    match: {handler: agent.judge}
    agent: {verb: decide, response: '{"verdict":"fail","reason":"not what was asked"}'}
`
	if err := os.WriteFile(cas, []byte(evalCassette+judge), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), val, RunOptions{Cassette: cas, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	// m1 answers accept for e1/e3 (judged fail) and refine for e2/e4 (pass).
	c := rep.Candidates[0]
	if c.ComparatorPassRate != 0.5 || len(rep.FailureSamples) != 2 || rep.FailureSamples[0].Reason != "judge: not what was asked" {
		t.Errorf("candidate %+v samples %+v", c, rep.FailureSamples)
	}
}
