package junit

import (
	"strings"
	"testing"
)

// TestWriteCountsAndEscapes pins what Write fills in: the counts of each
// suite and of the report, the skipped attribute only when asked for, and
// escaped text.
func TestWriteCountsAndEscapes(t *testing.T) {
	for _, count := range []bool{false, true} {
		top := &Suites{Name: "r", CountSkipped: count}
		top.Add("s\x1b", Case{Name: "a", Failure: &Failure{Message: "m\nx", Type: "t"}}, 0.5)
		top.Add("s\x1b", Case{Name: "b", Skipped: &struct{}{}}, 0.25)
		top.Add("u", Case{Name: "c"}, 1)
		var b strings.Builder
		if err := Write(&b, top); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		want := []string{
			`<testsuites name="r" tests="3" failures="1"`,
			`<testsuite name="s\x1b" tests="2" failures="1"`,
			`time="0.750"`,
			`message="m\nx"`,
		}
		if count {
			want = append(want, `failures="1" skipped="1"`, `name="u" tests="1" failures="0" skipped="0"`)
		} else if strings.Contains(out, "skipped=") {
			t.Errorf("skipped attribute written without CountSkipped:\n%s", out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("CountSkipped=%v: no %q in\n%s", count, w, out)
			}
		}
		if !strings.HasSuffix(out, "</testsuites>\n") {
			t.Errorf("no trailing newline:\n%s", out)
		}
	}
}

// Every text field of a report is escaped, not only the names: a regression
// that drops one (a file, a failure body, a property) lets a bidi control or
// an escape sequence reach the CI's test view.
func TestWriteEscapesEveryField(t *testing.T) {
	const bad = "x\x1b[31m\u202e\u200b\x85y"
	top := &Suites{Name: "r", CountSkipped: true}
	top.Add(bad, Case{Name: bad, Classname: bad, File: bad, SystemOut: bad, Failure: &Failure{Message: bad, Type: bad, Body: bad}}, 1)
	top.Suites[0].Timestamp = bad
	top.Suites[0].Properties = &Properties{List: []Property{{Name: bad, Value: bad}}}
	var b strings.Builder
	if err := Write(&b, top); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, raw := range []string{"\x1b", "\u202e", "\u200b", "\u0085", "&#x1B;", "&#x85;"} {
		if strings.Contains(out, raw) {
			t.Errorf("%q reached the report unescaped:\n%s", raw, out)
		}
	}
	if n := strings.Count(out, `x\x1b[31m\u202e\u200b\x85y`); n != 11 {
		t.Errorf("%d escaped fields, want 11 (suite, timestamp, property name and value, case name, classname, file, system-out, failure message, type, body):\n%s", n, out)
	}
}
