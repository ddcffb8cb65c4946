package testmerge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func shard(t *testing.T, dir, name string, files ...string) string {
	t.Helper()
	r := &flowtest.Report{}
	for _, f := range files {
		r.Results = append(r.Results, &flowtest.FlowResult{File: f, Passed: true, Turns: []*flowtest.TurnResult{{Passed: true}}})
		r.Passed++
	}
	data, err := flowtest.MarshalReport(r)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, data)
}

// Profiles and reports given in any order are told apart, and the
// reports merge with their results in file order.
func TestReadSortsProfilesFromReportsAndMergesInFileOrder(t *testing.T) {
	dir := t.TempDir()
	prof, err := os.ReadFile("../coverage/testdata/corpus/golden/profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Read([]string{
		shard(t, dir, "s2.json", "flows/z.yaml", "flows/b.yaml"),
		writeFile(t, dir, "cover.json", prof),
		shard(t, dir, "s1.json", "flows/a.yaml"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Profiles) != 1 || len(in.Reports) != 2 {
		t.Fatalf("%d profiles, %d reports; want 1 and 2", len(in.Profiles), len(in.Reports))
	}
	m := in.Report()
	var got []string
	for _, r := range m.Results {
		got = append(got, r.File)
	}
	if strings.Join(got, " ") != "flows/a.yaml flows/b.yaml flows/z.yaml" || m.Passed != 3 || m.Failed != 0 {
		t.Errorf("merged %v, %d passed, %d failed", got, m.Passed, m.Failed)
	}
}

// What cannot be merged exactly, or was given twice, is refused naming
// the file and the fix.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	s1 := shard(t, dir, "s1.json", "flows/a.yaml")
	for _, c := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"lcov", []string{writeFile(t, dir, "c.lcov", []byte("TN:\nSF:app.yaml\nend_of_record\n"))}, "c.lcov: LCOV profiles cannot be merged exactly"},
		{"twice", []string{s1, s1}, "s1.json: the same report as " + s1},
		{"missing", []string{filepath.Join(dir, "none.json")}, "none.json: "},
		{"not a report", []string{writeFile(t, dir, "x.json", []byte(`[1]`))}, "x.json: not a kitsoki test --json report"},
	} {
		_, err := Read(c.paths)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
