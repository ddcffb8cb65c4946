package testmerge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// FuzzRead: any shard file, read alone and after a good shard: no panic; a
// rejection names the file; what is read merges into a report that
// marshals.
func FuzzRead(f *testing.F) {
	prof, err := os.ReadFile("../coverage/testdata/corpus/golden/profile.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(prof)
	good, err := flowtest.MarshalReport(&flowtest.Report{Passed: 1, Results: []*flowtest.FlowResult{{File: "flows/a.yaml", Passed: true, Turns: []*flowtest.TurnResult{{Passed: true}}}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"passed":-1,"results":[{"file":"x","turns":[null]}]}`))
	f.Add([]byte("mode: set\nx.go:1.1,2.2 1 1\n"))
	dir := f.TempDir()
	first := filepath.Join(dir, "first.json")
	if err := os.WriteFile(first, good, 0o600); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "shard.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, paths := range [][]string{{path}, {first, path}} {
			in, err := Read(paths)
			if err != nil {
				if !strings.Contains(err.Error(), path) {
					t.Fatalf("error does not name %s: %v", path, err)
				}
				continue
			}
			if _, err := flowtest.MarshalReport(in.Report()); err != nil {
				t.Fatalf("merged report does not marshal: %v", err)
			}
		}
	})
}
