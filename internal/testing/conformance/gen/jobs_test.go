package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// -jobs draws what it promises (jobs in region leaves, on the parallel
// root, in the child, three namespaces, region-leaf and templated
// on_complete targets, the jw way in), every clock turn covers every
// delay, the stories load and run clean here, and the story without its
// draws is the one the seed writes without -jobs.
func TestJobsStoriesRun(t *testing.T) {
	t.Parallel() // its own temp dirs; write shares nothing between calls
	const n = 30
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true, deep: true, jobs: true})
	}
	dir := writeSeeded(t, flows, n, 23, "000/app.yaml", "001/flows/f.yaml", "002/kid/app.yaml")
	assertDrawn(t, dir, []string{"invoke: host.job2", "invoke: host.jobf", "target: p.rb.b2", "{{ world.n > 2 ? ''s1''",
		"jw:", "name: jw", "target: '@exit:done'", "hosts:\n    - host.ok\n    - host.job"})
	for i := range n {
		b, err := os.ReadFile(filepath.Join(dir, filepathNum(i), "flows", "f.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Handlers map[string]struct{ Delay string } `yaml:"host_handlers"`
			Turns    []struct {
				Advance string `yaml:"advance_clock"`
			}
		}
		if err := yaml.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		var most time.Duration
		for _, h := range f.Handlers {
			d, _ := time.ParseDuration(h.Delay)
			most = max(most, d)
		}
		for _, tr := range f.Turns {
			if d, err := time.ParseDuration(tr.Advance); tr.Advance != "" && !strings.HasSuffix(tr.Advance, "d") && (err != nil || d < most) {
				t.Errorf("story %d: advance_clock %s does not cover the delay %s", i, tr.Advance, most)
			}
		}
	}
	plain := t.TempDir()
	if err := write(plain, 1, 23, genOpts{emits: true, trail: true, extras: true, deep: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) {
		t.Error("-jobs added nothing")
	}
	runClean(t, discoverEach(t, dir, n), n)
}

func filepathNum(i int) string { return fmt.Sprintf("%03d", i) }
