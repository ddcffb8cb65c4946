package flowtest

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
)

// A fixture name, story and failure message holding what XML 1.0 forbids
// (C0 controls, U+FFFE), a CDATA end "]]>", markup and bytes that are not
// UTF-8 still give a well-formed report: encoding/xml reads it back, with
// the forbidden characters replaced, and it is valid UTF-8 throughout.
func TestJUnitHostileTextStaysWellFormed(t *testing.T) {
	nasty := "a\x00b\x01\x0b\x1b[31m]]><x/>&amp;\"'\ufffe\xff\xfe\r\n::error::x"
	results := []*Result{{Name: "s/flows/" + nasty + ".yaml", Story: "s" + nasty + "/app.yaml",
		Flow:     &FlowResult{File: "s/flows/" + nasty + ".yaml"},
		Failures: []Failure{{Turn: 1, Pos: Pos{File: nasty, Line: 3, Col: 1}, Message: nasty + "\n" + nasty}}}}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, results); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(buf.Bytes()) {
		t.Errorf("the report is not UTF-8:\n%q", buf.String())
	}
	var doc struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	d := xml.NewDecoder(&buf)
	d.Strict = true
	if err := d.Decode(&doc); err != nil {
		t.Fatalf("the report does not parse: %v", err)
	}
	if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 1 {
		t.Fatalf("read back: %+v", doc)
	}
	c := doc.Suites[0].Cases[0]
	for _, s := range []string{doc.Suites[0].Name, c.Name, c.Failure.Message, c.Failure.Body} {
		if strings.ContainsAny(s, "\x00\x01\x0b\x1b\ufffe") {
			t.Errorf("a character XML forbids survived: %q", s)
		}
	}
	if !strings.Contains(c.Failure.Body, "]]><x/>&amp;") {
		t.Errorf("the text around them was lost: %q", c.Failure.Body)
	}
}
