package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A story copied from a DIFFERS golden is named as such where it differs;
// one that does not differ, or has no DIFFERS file, is not.
func TestDiffTreeMarksDocumented(t *testing.T) {
	dir := t.TempDir()
	report := func(view string) string {
		return `{"Results":[{"File":"flows/a.yaml","Passed":true,"Turns":[{"TurnIndex":0,"Passed":true,"NewState":"s","View":"` + view + `"}]}]}`
	}
	for name, st := range map[string]struct {
		ours    string
		differs bool
	}{"000": {"B", true}, "001": {"B", false}, "002": {"A", true}} {
		d := filepath.Join(dir, name)
		files := map[string]string{"existing.json": report("A"), "ours.json": report(st.ours)}
		if st.differs {
			files["DIFFERS"] = ""
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, b := range files {
			if err := os.WriteFile(filepath.Join(d, f), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var out bytes.Buffer
	differ, total, err := diffTree(&out, dir)
	if err != nil || differ != 2 || total != 3 {
		t.Fatalf("differ %d of %d, error %v:\n%s", differ, total, err, &out)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "000: ") || !strings.Contains(lines[0], "DIFFERS golden") ||
		!strings.HasPrefix(lines[1], "001: ") || strings.Contains(lines[1], "DIFFERS") {
		t.Errorf("output:\n%s", &out)
	}
}
