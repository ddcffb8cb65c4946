package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The starlark stories gen writes load here and their fixtures run with
// no Go runtime text in any failure, view or event; scripts, sidecars and
// every kind of fixture are written; the same seed writes the same bytes.
func TestStarlarkStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	scripts := func(dir string, n int, seed uint64) error { return writeStarlark(dir, n, seed, false, false) }
	dir := writeSeeded(t, scripts, n, 7, "000/app.yaml", "001/scripts/s1.star", "001/flows/h.yaml", "001/flows/cassettes/http.yaml")
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) != 3 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	assertDrawn(t, dir, []string{"starlark_http_cassette:", "starlark_inspect_cassette:", "host_bindings:", "host_cassette:", "ctx.http.get", "ctx.world.get", "expect_world:"})
	runClean(t, files, n)
	// -cassettes against these stories, not a second batch written alike
	t.Run("Cassettes", func(t *testing.T) { cassettesStoriesRun(t, dir, n) })
}
