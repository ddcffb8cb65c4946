package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNamesStayOnTheirLine: a file name (or rule) holding a newline, an
// escape sequence, a C1 control or a bidi override neither splits a
// diagnostic across lines nor reaches the terminal raw, in any format;
// JSON and SARIF still decode to the same name.
func TestNamesStayOnTheirLine(t *testing.T) {
	name := "evil\n::error file=x::pwned\x1b[2J\u009b2J\u202e.yaml"
	ds := []Diagnostic{{File: name, Line: 3, Col: 2, Severity: Error, Rule: "r\nx", Message: "bad\u009bthing"}}
	raw := func(t *testing.T, out string) {
		t.Helper()
		for _, bad := range []string{"\x1b", "\u009b", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%q reached the output raw:\n%s", bad, out)
			}
		}
	}
	for _, f := range []Format{FormatHuman, FormatGitHub} {
		var b bytes.Buffer
		if err := Write(&b, f, ds, ToolInfo{Root: "/"}, HumanOptions{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if n := strings.Count(out, "\n"); n != 1 {
			t.Errorf("%s: %d lines, want 1:\n%s", f, n, out)
		}
		raw(t, out)
	}
	if s := ds[0].String(); strings.Contains(s, "\n") || !strings.Contains(s, `evil\n::error`) {
		t.Errorf("String() = %q, want the name on one line, escaped", s)
	}
	for _, f := range []Format{FormatJSON, FormatSARIF} {
		var b bytes.Buffer
		if err := Write(&b, f, ds, ToolInfo{Root: "/"}, HumanOptions{}); err != nil {
			t.Fatal(err)
		}
		raw(t, b.String())
		if !json.Valid(b.Bytes()) {
			t.Fatalf("%s: not valid JSON:\n%s", f, b.String())
		}
		if f == FormatJSON {
			var got []Diagnostic
			if err := json.Unmarshal(b.Bytes(), &got); err != nil || got[0].File != name || got[0].Message != ds[0].Message {
				t.Errorf("JSON round trip: %+v %v", got, err)
			}
		}
	}
}
