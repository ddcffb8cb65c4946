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
		var app any
		if ab, err := os.ReadFile(filepath.Join(dir, filepathNum(i), "app.yaml")); err != nil || yaml.Unmarshal(ab, &app) != nil {
			t.Fatalf("story %d: %v", i, err)
		}
		for name, h := range f.Handlers {
			d, _ := time.ParseDuration(h.Delay)
			most = max(most, d)
			if d >= fgWait && foregroundInOnComplete(app, name, false) {
				t.Errorf("story %d: an on_complete calls %s (delay %s) in the foreground, which upstream sleeps in real time and aborts", i, name, h.Delay)
			}
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

// -jobs re-aims every draw's timeout, on_complete target and chain
// on_error that names a state entering which submits a job (a relative,
// templated or "." one too), in the child as well: upstream aborts a run
// whose job is submitted inside a clock drain.
func TestJobsSettleAimsAtNoJobState(t *testing.T) {
	t.Parallel()
	job := func() []any { return []any{m{"invoke": "host.job", "background": true}} }
	chain := func(targets ...string) []any {
		var c []any
		for _, tg := range targets {
			c = append(c, m{"target": tg}, m{"invoke": "host.bad", "on_error": tg})
		}
		return []any{m{"invoke": "host.job", "background": true, "on_complete": c}}
	}
	app := m{"states": m{
		"s0": m{"on_enter": job(), "timeout": m{"after": "1h", "target": "."}},
		"s1": m{"timeout": m{"after": "1h", "target": "s0"}, "on": m{"go": []any{m{"effects": chain("c.c2", "{{ world.n > 2 ? 's0' : 's2' }}", "kid")}}}},
		"s2": m{"on": m{"go": []any{m{"effects": chain("s2", "s1")}}}},
		"c": m{"on_enter": job(), "states": m{
			"c1": m{"timeout": m{"after": "2m", "target": "../c2"}},
			"c2": m{"on_exit": chain("..", "../../s0", "c/c1")},
		}},
	}}
	kid := m{"states": m{"k1": m{"on_enter": job()}, "k2": m{"on": m{"poke": []any{m{"effects": chain("k1", "k2", "@exit:done")}}}}}}
	x := newJobGen(1, false)
	x.settleStory(app, kid)
	aimed := map[string]int{}
	collectAims(app, aimed)
	for _, bad := range []string{".", "s0", "c.c2", "{{ world.n > 2 ? 's0' : 's2' }}", "kid", "../c2", "..", "../../s0", "c/c1"} {
		if aimed[bad] > 0 {
			t.Errorf("%d targets name %s, whose entry submits a job", aimed[bad], bad)
		}
	}
	if aimed["s1"] != 17 || aimed["s2"] != 2 {
		t.Errorf("want the others moved to s1 (17) and s2's own kept: %v", aimed)
	}
	kaimed := map[string]int{}
	collectAims(kid, kaimed)
	if kaimed["k1"] != 0 || kaimed["k2"] != 4 || kaimed["@exit:done"] != 2 {
		t.Errorf("child: want k1 moved to k2, @exit kept: %v", kaimed)
	}
}

// foregroundInOnComplete reports whether an on_complete anywhere in v
// invokes name without background: true.
func foregroundInOnComplete(v any, name string, in bool) bool {
	switch t := v.(type) {
	case m:
		if in && t["invoke"] == name && t["background"] != true {
			return true
		}
		for k, e := range t {
			if foregroundInOnComplete(e, name, in || k == "on_complete") {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if foregroundInOnComplete(e, name, in) {
				return true
			}
		}
	}
	return false
}
