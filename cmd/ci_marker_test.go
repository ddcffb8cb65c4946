package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// ciMarker is an older-form workflow command in the middle of a value:
// GitHub Actions obeys "##[" and Azure Pipelines "##vso[" wherever they
// stand in a line, so a value printed after a label ("expected ...",
// "say: ...") must not carry one.
const ciMarker = "idle ##vso[task.setvariable variable=PATH]/tmp/evil ##[error]forged ##teamcity[setParameter name=x]"

// checkNoMarker fails t when out holds a "##[" or "##vso[" anywhere, and
// when the value is not in out at all (the test would prove nothing).
func checkNoMarker(t *testing.T, what, out string) {
	t.Helper()
	for line := range strings.SplitSeq(out, "\n") {
		if strings.Contains(line, "##[") || strings.Contains(line, "##vso[") || strings.Contains(line, "##teamcity[") {
			t.Errorf("%s: a line holds a workflow command a CI runner obeys: %q", what, line)
		}
	}
	if !strings.Contains(out, "task.setvariable") {
		t.Errorf("%s: the hostile value is not in the output at all:\n%s", what, out)
	}
}

// TestMidLineWorkflowCommands: the older workflow command form inside a
// fixture's expectation, a state's say and a fixture's name reaches
// test (text and github), validate (human and github) and run escaped
// (redteam6: each printed it raw after a label).
func TestMidLineWorkflowCommands(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": "app: {id: ci, version: 0.1.0}\nintents:\n  go: {description: go}\nroot: idle\nstates:\n  idle:\n" +
			"    on_enter:\n      - say: \"hello " + ciMarker + "\"\n    on:\n      go: [{target: s}]\n  s:\n    terminal: true\n",
		"flows/a ##[error]name.yaml": "test_kind: flow\nturns:\n  - intent: go\n    expect_state: \"" + ciMarker + "\"\n",
	})
	for _, format := range []string{"text", "github"} {
		code, out, errOut := runCmd(t, "test", dir, "--format", format)
		if code != 1 {
			t.Fatalf("test --format %s: exit %d, want 1 (the fixture fails)\n%s%s", format, code, out, errOut)
		}
		checkNoMarker(t, "test --format "+format, out+errOut)
	}
	for _, format := range []string{"human", "github"} {
		_, out, errOut := runCmd(t, "validate", dir, "--format", format)
		checkNoMarker(t, "validate --format "+format, out+errOut)
	}
	_, out, errOut := runCmd(t, "run", dir, "--trace", filepath.Join(t.TempDir(), "run.jsonl"))
	checkNoMarker(t, "run", out+errOut)
}

// TestJSONWriterSplitMarker: a "##vso[" that a buffered writer (trace
// export's) splits across two Writes is still escaped.
func TestJSONWriterSplitMarker(t *testing.T) {
	in := `{"a": "x ##vso[task.setvariable variable=X]1 #", "b": "##[error]y", "c": "##teamcity[x]"}` + "\n"
	for cut := range len(in) {
		var b strings.Builder
		jw := &jsonWriter{w: &b}
		for _, part := range []string{in[:cut], in[cut:]} {
			if _, err := jw.Write([]byte(part)); err != nil {
				t.Fatal(err)
			}
		}
		if err := jw.Flush(); err != nil {
			t.Fatal(err)
		}
		want := `{"a": "x \u0023#vso[task.setvariable variable=X]1 #", "b": "\u0023#[error]y", "c": "\u0023#teamcity[x]"}` + "\n"
		if b.String() != want {
			t.Fatalf("cut at %d: got %s, want %s", cut, b.String(), want)
		}
	}
}
