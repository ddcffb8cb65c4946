package flowtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzReadStaticRecording: any routing recording the static harness
// reads: no panic, and a refusal names the file; an entry read has a
// state, an input and an intent.
func FuzzReadStaticRecording(f *testing.F) {
	if b, err := os.ReadFile("testdata/intents-conformance/static-recording/recording.yaml"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		"kind: recording\nentries:\n  - {state: a, input: x, intent: {name: go}}\n  - {state: a, input: huh, clarify: true}\n",
		"kind: recording\nentries: []\n", "kind: other\n", "entries: {}\n", "kind: recording\nentries:\n  - {state: a, input: 5, intent: {name: n, slots: {d: 2026-01-02}}}\n",
		"a: &a [*a, *a]\n", "\t",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "recording.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		entries, err := readStaticRecording(dir, path)
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(path)) {
				t.Fatalf("%q: the error does not name the file: %v", data, err)
			}
			return
		}
		for i, e := range entries {
			if e.State == "" || e.Input == "" || e.Intent == "" {
				t.Fatalf("%q: entry %d read incomplete: %+v", data, i, e)
			}
		}
	})
}
