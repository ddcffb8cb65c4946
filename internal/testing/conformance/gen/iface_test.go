package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The iface stories gen writes load here (all but those carrying a
// load-time mistake) and their fixtures run with no Go runtime text;
// every place an interface is declared, bound and called is drawn; the
// same seed writes the same bytes.
func TestIfaceStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	dir := writeSeeded(t, writeIface, n, 21, "000/app.yaml", "000/kid/app.yaml", "001/flows/f1.yaml")
	assertDrawn(t, dir, []string{
		"host_interfaces:", "default: host.starlark", "default: host.tkx", "gk__tk: host.", "invoke: iface.kid__",
		"invoke: iface.gk__", "invoke: iface.calc.run", "script: scripts/c.star", "type: parallel", "background: true",
		"on_complete:", "kid2:", "kid__tk: host.", "kid2__", "nope: host.", "host.tk2.get:", "host.starlark.run:",
		"use_orchestrator: false", "advance_clock: 1s", "on_error: failed", "kid__zz:", "by_op:", "by_call:",
		"expect_host_calls:", "expect_no_host_calls:", "iface.vc", "host.tk1.get",
		"a.b:", "invoke: iface.a.b.", "invoke: iface.kid__a.b.",
	})
	var files []*flowtest.File
	mistakes := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if _, err := os.Stat(filepath.Join(d, "mistake.txt")); err == nil {
			mistakes++
			continue
		}
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) < 3 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		for _, f := range fs {
			// an empty binding of an interface stops the run (golden
			// binding-empty): a fatal problem by design
			if b, _ := os.ReadFile(f.Path); !bytes.Contains(b, []byte(`: ""`)) {
				files = append(files, f)
			}
		}
	}
	if mistakes > n/4 {
		t.Errorf("%d of %d stories carry a load-time mistake, want under a quarter", mistakes, n)
	}
	runClean(t, files, len(files)/2)
}
