package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The starlark stories gen writes load here and their fixtures run with
// no Go runtime text in any failure, view or event; scripts, sidecars and
// every kind of fixture are written; the same seed writes the same bytes.
func TestStarlarkStoriesRun(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	if err := writeStarlark(dir, n, 7, false); err != nil {
		t.Fatal(err)
	}
	again := t.TempDir()
	if err := writeStarlark(again, 2, 7, false); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, dir, again, "000/app.yaml", "001/scripts/s1.star", "001/flows/h.yaml", "001/flows/cassettes/http.yaml")
	var files []*flowtest.File
	seen := map[string]bool{}
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.Discover([]string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) != 3 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
		for _, f := range []string{"flows/h.yaml", "flows/c.yaml", "scripts/s1.star"} {
			b, _ := os.ReadFile(filepath.Join(d, f))
			for _, k := range []string{"starlark_http_cassette:", "starlark_inspect_cassette:", "host_bindings:", "host_cassette:", "ctx.http.get", "ctx.world.get", "expect_world:"} {
				if strings.Contains(string(b), k) {
					seen[k] = true
				}
			}
		}
	}
	for _, k := range []string{"starlark_http_cassette:", "starlark_inspect_cassette:", "host_bindings:", "host_cassette:", "ctx.http.get", "ctx.world.get", "expect_world:"} {
		if !seen[k] {
			t.Errorf("no story of %d drew %s", n, k)
		}
	}
	runClean(t, files, n)
}
