package flowtest

import (
	"bytes"
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
		r, err := ReadReport(f)
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
