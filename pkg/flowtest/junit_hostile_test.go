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

// Bidi controls, zero-width characters and escape sequences in a fixture
// name, its story, its file and a failure reach the JUnit report escaped,
// as in the human and GitHub formats: a CI's test view shows \u202e, not
// text reordered by it. Both JUnit writers (flows and intents) escape.
func TestJUnitEscapesBidiAndInvisibles(t *testing.T) {
	evil := "ok\u202etxt.yaml\u200b\u2066x\u2069\x1b]8;;http://e\x07"
	results := []*Result{{Name: "s/flows/" + evil, Story: "s/" + evil,
		Flow:     &FlowResult{File: "s/flows/" + evil},
		Failures: []Failure{{Turn: 0, Pos: Pos{File: evil, Line: 2, Col: 1}, Message: "want " + evil + "\n::error::" + evil}}}}
	intents := &IntentReport{Fixtures: []*IntentFixtureReport{{ID: evil, State: evil, MinPassRate: 1,
		Inputs: []*IntentInputReport{{Input: evil, Runs: 1, BelowMin: true, FirstActualIntent: evil, FirstError: evil}}}}}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"flows":        func(b *bytes.Buffer) error { return WriteJUnit(b, results) },
		"intents":      func(b *bytes.Buffer) error { return WriteIntentsJUnit(b, intents) },
		"intents text": func(b *bytes.Buffer) error { WriteIntentsText(b, intents); return nil },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, raw := range []string{"\u202e", "\u200b", "\u2066", "\u2069", "\x1b", "\x07", "&#x1B;", "&#x7;"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s: %q reached the report raw:\n%s", name, raw, out)
			}
		}
		if !strings.Contains(out, `ok\u202etxt.yaml\u200b\u2066x\u2069\x1b]8;;http://e\x07`) {
			t.Errorf("%s: the name is not shown escaped:\n%s", name, out)
		}
		if strings.Contains(out, "\n::error") {
			t.Errorf("%s: a workflow command line survived:\n%s", name, out)
		}
	}
}
