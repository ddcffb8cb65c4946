package cmd

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestJUnitWhenNothingRuns: a run refused before its first fixture (a
// fixture that does not parse, a story that does not load) still exits 2
// and writes no --json (the existing engine writes none), but its --junit
// report holds one failed case per broken file, at the error's line, with
// the positioned finding, so a CI's test view shows why instead of
// finding no report.
func TestJUnitWhenNothingRuns(t *testing.T) {
	good := "app: { id: j, version: 0.1.0 }\nintents:\n  go: {description: go}\nroot: a\nstates:\n  a:\n    on:\n      go: [{target: b}]\n  b: {terminal: true}\n"
	for _, c := range []struct {
		name, broken, line, want string
		files                    map[string]string
	}{
		{"fixture", "s/flows/bad.yaml", "4", "YAML does not parse", map[string]string{
			"s/app.yaml":       good,
			"s/flows/ok.yaml":  "test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n    expect_state: b\n",
			"s/flows/bad.yaml": "test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n    expect_state: [b\n",
		}},
		{"story", "s/app.yaml", "4", `root: state "nowhere" is not declared in states`, map[string]string{
			"s/app.yaml":      strings.Replace(good, "root: a", "root: nowhere", 1),
			"s/flows/ok.yaml": "test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n    expect_state: b\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := storytest.TempTree(t, c.files)
			storytest.WriteTree(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
			t.Chdir(dir)
			code, out, errOut := runCmd(t, "test", "s", "--junit", "report.xml", "--json", "report.json")
			if code != exitUsageEnv {
				t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
			}
			if _, err := os.Stat(filepath.Join(dir, "report.json")); !os.IsNotExist(err) {
				t.Errorf("--json was written for a run that never started: %v", err)
			}
			x, err := os.ReadFile(filepath.Join(dir, "report.xml"))
			if err != nil {
				t.Fatalf("no --junit report for a run that could not start: %v\n%s", err, errOut)
			}
			var rep struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
				Suites   []struct {
					Cases []struct {
						File    string `xml:"file,attr"`
						Line    string `xml:"line,attr"`
						Failure struct {
							Message string `xml:"message,attr"`
							Type    string `xml:"type,attr"`
							Body    string `xml:",chardata"`
						} `xml:"failure"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal(x, &rep); err != nil || rep.Tests != 1 || rep.Failures != 1 || len(rep.Suites) != 1 || len(rep.Suites[0].Cases) != 1 {
				t.Fatalf("junit: %v %+v\n%s", err, rep, x)
			}
			tc := rep.Suites[0].Cases[0]
			if tc.File != c.broken || tc.Line != c.line || tc.Failure.Type != "load" || !strings.Contains(tc.Failure.Message, c.want) || !strings.Contains(tc.Failure.Body, c.broken+":"+c.line+":") {
				t.Fatalf("case %+v, want %s line %s with %q\n%s", tc, c.broken, c.line, c.want, x)
			}
		})
	}
}

// TestJUnitStdoutStaysXMLUnderGitHub: with --format github and --junit -,
// the fixtures' annotations go to stderr with the text, so stdout is the
// JUnit document alone, whether the run starts (a fixture warning) or not
// (a fixture that does not parse).
func TestJUnitStdoutStaysXMLUnderGitHub(t *testing.T) {
	app := "app: { id: j, version: 0.1.0 }\nintents:\n  go: {description: go}\nroot: a\nstates:\n  a:\n    on:\n      go: [{target: b}]\n  b: {terminal: true}\n"
	warned := "test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n    expect_state: b\n    expect_nothing: 1\n"
	for name, files := range map[string]map[string]string{
		"runs":    {"s/app.yaml": app, "s/flows/w.yaml": warned},
		"not run": {"s/app.yaml": app, "s/flows/w.yaml": warned, "s/flows/bad.yaml": "test_kind: flow\nturns: [\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := storytest.TempTree(t, files)
			t.Chdir(dir)
			_, out, errOut := runCmd(t, "test", "s", "--format", "github", "--junit", "-")
			if !strings.HasPrefix(out, "<?xml") {
				t.Fatalf("stdout is not the JUnit document alone:\n%s", out)
			}
			var doc struct{}
			if err := xml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("stdout: %v\n%s", err, out)
			}
			if !strings.Contains(errOut, "::warning file=s/flows/w.yaml") {
				t.Fatalf("the annotations are not on stderr:\n%s", errOut)
			}
		})
	}
}
