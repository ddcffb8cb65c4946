package coverage

import (
	"bytes"
	"context"
	"testing"

	"kitsoki/pkg/flowtest"
)

// runCovered runs the flow fixtures of the stories (app.yaml paths) with
// a collector registered on every story that has fixtures, fails the test when a fixture
// fails, and returns the profile, paths relative to base.
func runCovered(t testing.TB, base string, apps ...string) *Profile {
	t.Helper()
	files, ds, err := flowtest.DiscoverUnder("", nil, apps, "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures under %v (%v)", apps, ds)
	}
	col := NewCollector(Options{Base: base})
	runner := flowtest.NewRunner(flowtest.Options{Jobs: 2, Observer: col, Root: base})
	seen := map[string]bool{}
	for _, f := range files {
		app := f.Story
		if seen[app] {
			continue
		}
		seen[app] = true
		ld, err := runner.Story(app)
		if err != nil {
			t.Fatal(err)
		}
		if ld.Machine == nil {
			t.Fatalf("%s does not compile: %v", app, ld.CompileErr)
		}
		col.Add(ld.Machine)
	}
	for _, res := range runner.Run(context.Background(), files) {
		if !res.Passed() {
			t.Fatalf("fixture %s failed: fatal %v, failures %v", res.Name, res.Fatal, res.Failures)
		}
	}
	return col.Profile()
}

// formats renders p in every profile format.
func formats(t testing.TB, p *Profile) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"json":      func(b *bytes.Buffer) error { return WriteJSON(b, p) },
		"lcov":      func(b *bytes.Buffer) error { return WriteLCOV(b, p) },
		"cobertura": func(b *bytes.Buffer) error { return WriteCobertura(b, p) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.Bytes()
	}
	return out
}
