package junit

import (
	"encoding/xml"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
)

// FuzzWrite: whatever a fixture names itself or a failure says, the report
// is one well-formed XML document that reads back as the escaped text
// (termsafe), so a CI's JUnit reader shows what kitsoki printed.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"plain", "x\x1b[31m\u202e\u200b\x85y", "]]></failure><testcase name=\"z\"/>", "a\r\nb\tc\x00\ufffe\uffff\U0010ffff", "\xff\xfe<&>\"'"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, body string) {
		top := &Suites{Name: name, CountSkipped: true}
		top.Add(name, Case{Name: name, Classname: name, File: name, SystemOut: body, Failure: &Failure{Message: name, Type: name, Body: body}}, 1)
		top.Suites[0].Properties = &Properties{List: []Property{{Name: name, Value: body}}}
		var b strings.Builder
		if err := Write(&b, top); err != nil {
			t.Fatal(err)
		}
		var got Suites
		dec := xml.NewDecoder(strings.NewReader(b.String()))
		dec.Strict = true
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("the report does not read back: %v\n%s", err, b.String())
		}
		if len(got.Suites) != 1 || len(got.Suites[0].Cases) != 1 || got.Suites[0].Cases[0].Failure == nil || got.Suites[0].Properties == nil || len(got.Suites[0].Properties.List) != 1 {
			t.Fatalf("the report reads back as another shape: %+v\n%s", got, b.String())
		}
		line, text := termsafe.Line(name), termsafe.Printable(body)
		s, c := got.Suites[0], got.Suites[0].Cases[0]
		for what, pair := range map[string][2]string{
			"suite name": {s.Name, line}, "case name": {c.Name, line}, "classname": {c.Classname, line}, "file": {c.File, line},
			"failure message": {c.Failure.Message, line}, "failure type": {c.Failure.Type, line},
			"property name": {s.Properties.List[0].Name, line}, "property value": {s.Properties.List[0].Value, termsafe.Line(body)},
			"failure body": {c.Failure.Body, text}, "system-out": {c.SystemOut, text},
		} {
			if pair[0] != pair[1] {
				t.Fatalf("%s reads back as %q, want %q", what, pair[0], pair[1])
			}
		}
	})
}
