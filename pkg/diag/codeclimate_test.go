package diag

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestCodeClimateShape: every finding carries the fields GitLab's code
// quality report requires, its path relative to the root, errors "major"
// and warnings "minor", a line of at least 1, and a fingerprint that is
// unique in the report but does not change when the finding only moves.
func TestCodeClimateShape(t *testing.T) {
	root := t.TempDir()
	ds := []Diagnostic{
		{File: filepath.Join(root, "s", "app.yaml"), Line: 3, Col: 5, Severity: Error, Rule: "target", Message: `target "x" does not exist`},
		{File: filepath.Join(root, "s", "app.yaml"), Line: 9, Col: 5, Severity: Error, Rule: "target", Message: `target "x" does not exist`},
		{File: filepath.Join(root, "s", "flows", "a.yaml"), Severity: Warning, Rule: "flow-unknown-key", Message: "unknown key"},
	}
	write := func(ds []Diagnostic) []map[string]any {
		t.Helper()
		var b bytes.Buffer
		if err := Write(&b, FormatCodeClimate, ds, ToolInfo{Root: root}, HumanOptions{}); err != nil {
			t.Fatal(err)
		}
		var out []map[string]any
		if err := json.Unmarshal(b.Bytes(), &out); err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		return out
	}
	got := write(ds)
	if len(got) != 3 {
		t.Fatalf("%d issues, want 3: %v", len(got), got)
	}
	want := []struct {
		path, severity string
		line           float64
	}{{"s/app.yaml", "major", 3}, {"s/app.yaml", "major", 9}, {"s/flows/a.yaml", "minor", 1}}
	prints := map[any]bool{}
	for i, is := range got {
		loc := is["location"].(map[string]any)
		if is["type"] != "issue" || is["check_name"] != ds[i].Rule || is["description"] != ds[i].Message || is["severity"] != want[i].severity ||
			loc["path"] != want[i].path || loc["lines"].(map[string]any)["begin"] != want[i].line {
			t.Errorf("issue %d: %v, want %+v", i, is, want[i])
		}
		if fp, _ := is["fingerprint"].(string); len(fp) != 32 || prints[fp] {
			t.Errorf("issue %d: fingerprint %q empty or repeated", i, fp)
		}
		prints[is["fingerprint"]] = true
	}
	moved := append([]Diagnostic(nil), ds...)
	moved[0].Line, moved[1].Line = 30, 90
	if again := write(moved); again[0]["fingerprint"] != got[0]["fingerprint"] || again[1]["fingerprint"] != got[1]["fingerprint"] {
		t.Errorf("a finding that only moved got a new fingerprint")
	}
	if empty := write(nil); len(empty) != 0 {
		t.Errorf("no findings: %v, want []", empty)
	}
}
