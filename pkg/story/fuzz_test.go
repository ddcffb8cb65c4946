package story

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: any input yields a model or diagnostics, never a panic or hang.
func FuzzLoad(f *testing.F) {
	var seeds []string
	for _, glob := range []string{"testdata/corpus/*/app.yaml", "testdata/corpus/*/rooms/*.yaml", "testdata/broken/*/app.yaml", "testdata/clean/app.yaml", "testdata/upstream/*/app.yaml", "testdata/upstream/*/rooms/*.yaml"} {
		m, _ := filepath.Glob(glob)
		seeds = append(seeds, m...)
	}
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil && s == filepath.Join("testdata", "broken", "io", "app.yaml") {
			continue // a dangling link on purpose: the io rule's input
		}
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range recursiveAliasSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("x: &x {a: 1}\ny: {<<: *x, b: 2}\n"))
	f.Add([]byte("states:\n  s:\n    on:\n      go: {target: ../../..}\n"))
	// hex escapes the loader scans a view's and a world default's text
	// for: after an escaped line break, past a wide character, in a key
	f.Add([]byte("world:\n  w: {default: \"\\u00e9\\\n  \\x41\"}\nstates:\n  s: {view: [{kv: {pairs: {\"√\\U0001F600\": \"\\u00e9\"}}}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, ds := LoadSource("fuzz.yaml", data, Options{LookupEnv: noEnv})
		if st == nil && len(ds) == 0 {
			t.Fatal("no model and no diagnostics")
		}
		for _, d := range ds {
			if d.Rule == "internal" {
				t.Fatalf("internal error: %s", d)
			}
			if d.Rule == "" || d.Message == "" {
				t.Fatalf("empty diagnostic: %+v", d)
			}
		}
	})
}

// FuzzLoadDir drives the file-based path (include merge, imports) with a
// manifest and one included room file.
func FuzzLoadDir(f *testing.F) {
	app, _ := os.ReadFile("testdata/corpus/fix-tests/app.yaml")
	room, _ := os.ReadFile("testdata/corpus/fix-tests/rooms/pipeline.yaml")
	f.Add(app, room)
	f.Add([]byte("app: {id: x}\nroot: a\ninclude: [rooms/*.yaml]\nimports: {c: {source: ./rooms}}\n"), []byte("states: {a: {}}\n"))
	f.Add([]byte("app: {id: x}\nroot: a\ninclude: [\"*/*.yaml\", \"[\", \"r?oms/[a-z]*\", ../x/*, /abs/*]\nstates: {a: {}}\n"), []byte("states: {b: {}}\n"))
	f.Fuzz(func(t *testing.T, app, room []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "rooms"), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(filepath.Join(dir, "app.yaml"), app, 0o644)
		_ = os.WriteFile(filepath.Join(dir, "rooms", "room.yaml"), room, 0o644)
		st, ds := Load(dir, Options{LookupEnv: noEnv})
		if st == nil && len(ds) == 0 {
			t.Fatal("no model and no diagnostics")
		}
		for _, d := range ds {
			if d.Rule == "internal" {
				t.Fatalf("internal error: %s", d)
			}
		}
	})
}
