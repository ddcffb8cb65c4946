package flowtest

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Upstream's JSON reports read and write back byte for byte: the shape
// (field names and order, null vs [], event key order, HTML escaping, no
// trailing newline) is the existing engine's.
func TestReportRoundTripsUpstreamShape(t *testing.T) {
	probesDir := storytest.Shared(t, "reference/flow-probes")
	var files []string
	for _, pat := range []string{"*.json", "*/*.json"} {
		m, _ := filepath.Glob(filepath.Join(probesDir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no flow probes at " + probesDir)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"Results"`)) {
			continue // an intents report
		}
		n++
		r, err := ParseReport(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, err := MarshalReport(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, bytes.TrimRight(data, "\n")) {
			t.Errorf("%s: report does not round-trip\n got: %.300s\nwant: %.300s", f, out, data)
		}
	}
	if n == 0 {
		t.Fatal("no flow reports among the probes")
	}
}

func TestMergeReports(t *testing.T) {
	a := &Report{Results: []*FlowResult{{File: "a.yaml", Passed: true}}, Passed: 1}
	b := &Report{Results: []*FlowResult{{File: "b.yaml"}, {File: "c.yaml", Passed: true}}, Passed: 1, Failed: 1}
	m := MergeReports([]*Report{a, b})
	if len(m.Results) != 3 || m.Passed != 2 || m.Failed != 1 {
		t.Fatalf("merged: %+v", m)
	}
	empty, _ := MarshalReport(&Report{})
	if !strings.Contains(string(empty), `"Results": null`) {
		t.Errorf("no results must be null, as upstream: %s", empty)
	}
}

func TestJUnitParsesWithCounts(t *testing.T) {
	results := []*Result{
		{Name: "s/flows/a.yaml", Story: "s/app.yaml", Flow: &FlowResult{File: "s/flows/a.yaml", Passed: true}},
		{Name: "s/flows/b.yaml", Story: "s/app.yaml", Flow: &FlowResult{File: "s/flows/b.yaml"},
			Failures: []Failure{{Turn: 1, Pos: Pos{File: "s/flows/b.yaml", Line: 7, Col: 5}, Message: `expect_state: got "x", want "y" <&>`}}},
		{Name: "t/flows/c.yaml", Story: "t/app.yaml", Flow: &FlowResult{File: "t/flows/c.yaml", Skipped: true}},
	}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, results); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, buf.String())
	}
	if doc.Tests != 3 || doc.Failures != 1 || doc.Skipped != 1 || len(doc.Suites) != 2 || doc.Suites[0].Tests != 2 {
		t.Fatalf("counts: %+v", doc)
	}
	f := doc.Suites[0].Cases[1].Failure
	if f == nil || !strings.Contains(f.Message, `want "y" <&>`) || !strings.Contains(f.Body, "s/flows/b.yaml:7:5") || doc.Suites[0].Cases[1].Line != 7 {
		t.Fatalf("failure: %+v", doc.Suites[0].Cases[1])
	}
}

// A run keeps the events' payloads unencoded; NewReport encodes each
// once, the same bytes as the model marshalled at once (numbers as
// upstream writes them), and a second report of the same results is
// byte-identical.
func TestReportPayloadsEncodedForTheReport(t *testing.T) {
	r := one(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
`)
	wantPass(t, r)
	evs := r.Flow.Turns[0].Events
	pending := 0
	for _, ev := range evs {
		if ev.Payload != nil {
			t.Fatalf("%s: payload encoded during the run", ev.Kind)
		}
		if ev.pending {
			pending++
		}
	}
	if pending == 0 {
		t.Fatal("no event kept a payload")
	}
	want := make([]string, len(evs))
	for i, ev := range evs {
		if ev.pending {
			b, err := json.Marshal(plain(ev.model))
			if err != nil {
				t.Fatal(err)
			}
			want[i] = string(b)
		}
	}
	first, err := MarshalReport(NewReport([]*Result{r}))
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range r.Flow.Turns[0].Events {
		if string(ev.Payload) != want[i] || ev.pending {
			t.Errorf("event %d %s: payload %s, want %s", i, ev.Kind, ev.Payload, want[i])
		}
	}
	if !strings.Contains(string(first), `"world.update"`) || !strings.Contains(string(first), `"nested": {`) {
		t.Errorf("report lacks the world update's payload:\n%s", first)
	}
	second, _ := MarshalReport(NewReport([]*Result{r}))
	if !bytes.Equal(first, second) {
		t.Error("a second report of the same results differs")
	}
}
