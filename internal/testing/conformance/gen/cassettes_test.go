package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// -cassettes writes the HTTP cassettes in every form it promises (request:,
// both keys, each record mode, a lower-case method), leaves the rest of
// the story as the seed writes it without the flag (plain: the n stories
// written at seed 7 without it, which TestStarlarkStoriesRun runs), and
// the fixtures load and run with no Go runtime text.
func cassettesStoriesRun(t *testing.T, plain string, n int) {
	scripts := func(dir string, n int, seed uint64) error { return writeStarlark(dir, n, seed, false, true) }
	dir := writeSeeded(t, scripts, n, 7, "000/app.yaml", "001/flows/cassettes/http.yaml")
	assertDrawn(t, dir, []string{"record_mode: once", "record_mode: none", `record_mode: ""`, "method: get",
		"  - request:\n", "      request:\n", "url: https://api.test/other"})
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		for _, f := range []string{"app.yaml", "flows/h.yaml", "scripts/s1.star"} {
			a, _ := os.ReadFile(filepath.Join(plain, fmt.Sprintf("%03d", i), f))
			b, _ := os.ReadFile(filepath.Join(d, f))
			if string(a) != string(b) {
				t.Errorf("%03d/%s: -cassettes changed more than the cassettes", i, f)
			}
		}
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) != 3 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	for _, r := range runClean(t, files, n) {
		for _, f := range r.Failures {
			if strings.Contains(f.Message, "record_mode") {
				t.Errorf("%s: %s", r.Story, f.Message)
			}
		}
	}
}
