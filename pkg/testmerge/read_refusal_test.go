package testmerge

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
)

// Each file test merge cannot read is refused in the file's own terms:
// the file, where in it (line and column, the member) and what JSON was
// expected there, never a Go type such as map[string]interface {} or
// []*flowtest.FlowResult.
func TestReadRefusalsNameThePlaceInJSONTerms(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i, c := range []struct{ what, data string }{
		{"a list, not a report", `[1]`},
		{"a string, not a report", `"x"`},
		{"an empty file", ``},
		{"a file cut short", "{\"Results\": [\n  {\"File\": \"flows/a.yaml\","},
		{"a syntax error", "{\"Results\": [\n  {\"File\" \"flows/a.yaml\"}]}"},
		{"data after the report", `{"Results":[],"Passed":0,"Failed":0} {}`},
		{"Results an object", `{"Results":{},"Passed":0,"Failed":0}`},
		{"a result a number", "{\"Results\":[\n  1\n]}"},
		{"a file name a number", `{"Results":[{"File":1}]}`},
		{"Passed a string", `{"Results":[{"File":"flows/a.yaml","Passed":"yes"}]}`},
		{"a count a fraction", `{"Results":[],"Passed":1.5}`},
		{"a failure a number", `{"Results":[{"File":"f","Turns":[{"Failures":[1]}]}]}`},
		{"failures an object", `{"Results":[{"File":"f","Turns":[{"Failures":{}}]}]}`},
		{"an event's turn a string", `{"Results":[{"File":"f","Turns":[{"Events":[{"turn":"1"}]}]}]}`},
		{"an event's ts not a time", `{"Results":[{"File":"f","Turns":[{},{"Events":[{"ts":"2026-01-02T15:04:05Z"},{"ts":"yesterday"}]}]}]}`},
		{"an event's ts a number", `{"Results":[{"File":"f","Turns":[{"Events":[{"ts":12}]}]}]}`},
		{"a profile's version a string", `{"kitsoki_coverage":"1"}`},
		{"a profile's files an object", `{"kitsoki_coverage":1,"files":{}}`},
		{"a profile's count true", "{\"kitsoki_coverage\":1,\n \"files\":[{\"path\":\"app.yaml\",\"items\":[{\"count\":true}]}]}"},
		{"a profile's summary a list", `{"kitsoki_coverage":1,"summary":[]}`},
	} {
		p := writeFile(t, dir, fmt.Sprintf("shard%02d.json", i), []byte(c.data))
		_, err := Read([]string{p})
		if err == nil {
			t.Fatalf("%s: read", c.what)
		}
		msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
		for _, goType := range []string{"interface {}", "flowtest.", "coverage.", "Go value", "Go struct", "int64", "[]"} {
			if strings.Contains(msg, goType) {
				t.Errorf("%s: %q names a Go type (%s)", c.what, msg, goType)
			}
		}
		fmt.Fprintf(&b, "# %s: %s\n%s\n\n", c.what, c.data, msg)
	}
	golden.CheckString(t, "testdata/refusals.golden", b.String())
}
