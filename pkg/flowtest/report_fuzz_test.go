package flowtest

import (
	"io"
	"testing"
)

// FuzzMergeShardReport: a shard report given to kitsoki test merge comes
// from another CI job, anyone's. Parsed, checked as test merge checks it,
// merged with itself and written back as JSON and JUnit, it never panics.
func FuzzMergeShardReport(f *testing.F) {
	r := &Report{Results: []*FlowResult{
		{File: "flows/a.yaml", Passed: true, Turns: []*TurnResult{{TurnIndex: 0, Passed: true, NewState: "s", View: "v"}}},
		{File: "flows/b.yaml", Turns: []*TurnResult{{TurnIndex: -1, Failures: []string{"state \"x\": want \"y\""}}}},
	}, Passed: 1, Failed: 1}
	seed, err := MarshalReport(r)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"Results":[null,{}],"Passed":-1,"Failed":9223372036854775807}`))
	f.Add([]byte(`{"Results":[{"File":"x","Passed":false,"Skipped":true,"Turns":[{},null]}],"Passed":0,"Failed":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReport("shard.json", data)
		if err != nil {
			return
		}
		if CheckShardReport("shard.json", r, len(data)) != nil {
			return
		}
		m := MergeReports([]*Report{r, r})
		if _, err := MarshalReport(m); err != nil {
			t.Fatalf("a checked report does not write back: %v", err)
		}
		if err := WriteJUnitReport(io.Discard, m); err != nil {
			t.Fatalf("a checked report does not write as JUnit: %v", err)
		}
	})
}
