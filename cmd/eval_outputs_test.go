package cmd

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalRunJUnitMarkdown checks --junit and --markdown on eval run (a
// failing run still writes them, for CI to show why) and eval show, the
// usage errors of their standard-output forms, and that they never write
// over an input.
func TestEvalRunJUnitMarkdown(t *testing.T) {
	dir, ds, cas := evStory(t, "  - {name: one, args: {x: b}, expect: {word: b}}\n")
	junit, md := filepath.Join(dir, "eval.xml"), filepath.Join(dir, "eval.md")
	code, _, errOut := runCmd(t, "eval", "run", "--cassette", cas, "--junit", junit, "--markdown", md, ds)
	if code != 1 || !strings.Contains(errOut, "no candidate passed") {
		t.Fatalf("failing run: %d %s", code, errOut)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(b, &suites); err != nil || suites.Tests != 2 || suites.Failures != 2 {
		t.Errorf("junit %+v %v:\n%s", suites, err, b)
	}
	mdb, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(mdb), "**No candidate passed**") || !strings.Contains(string(mdb), "| fast |") {
		t.Errorf("markdown %v:\n%s", err, mdb)
	}
	latest := filepath.Join(dir, "evals", "reports", "pick", "latest.json")
	code, out, errOut := runCmd(t, "eval", "show", latest, "--markdown", "-")
	if code != 0 || out != string(mdb) {
		t.Errorf("show --markdown -: %d %s\n%q\nwant %q", code, errOut, out, mdb)
	}
	// The dataset's latest report, rendered the same.
	if code, out, errOut := runCmd(t, "eval", "show", ds, "--junit", "-"); code != 0 || out != string(b) {
		t.Errorf("show DATASET --junit -: %d %s\n%s", code, errOut, out)
	}
	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"eval", "run", "--cassette", cas, "--markdown", "-", ds}, "eval run prints its summary on standard output"},
		{[]string{"eval", "show", latest, "--markdown", "-", "--junit", "-"}, "only one output can go to standard output"},
		{[]string{"eval", "show", latest, "--markdown", "-", "--json"}, "cannot both print"},
		{[]string{"eval", "show", latest, "--junit", latest}, "is also an input"},
		{[]string{"eval", "run", "--cassette", cas, "--markdown", ds, ds}, "is also an input"},
		{[]string{"eval", "run", "--cassette", cas, "--junit", dir, ds}, "is a directory"},
		{[]string{"eval", "run", "--cassette", cas, "--junit", filepath.Join(dir, "no", "x.xml"), ds}, "does not exist"},
	} {
		code, _, errOut := runCmd(t, bad.args...)
		if code != 2 || !strings.Contains(errOut, bad.msg) {
			t.Errorf("%v: exit %d, want 2 with %q: %s", bad.args[2:], code, bad.msg, errOut)
		}
	}
	if got, _ := os.ReadFile(ds); !strings.HasPrefix(string(got), "kind: agent_eval") {
		t.Errorf("the dataset was overwritten: %s", got)
	}
}
