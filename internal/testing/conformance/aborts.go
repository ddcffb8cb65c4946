package conformance

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// fetchText is upstream's error for a bare name it could not fetch.
var fetchText = regexp.MustCompile(`cannot fetch (\S+) from`)

// abortTurn is the 1-based turn upstream's error names.
var abortTurn = regexp.MustCompile(`: turn (\d+): `)

// CheckAborts holds the fixtures of dir/upstream-aborts.txt to the turns
// that stopped the existing engine's flow run (it writes no report then,
// only its error, recorded in that file as "== FILE" and the error line):
// here the turn it names (the first when it names none) must fail, or stop
// the fixture with an error naming it, and the turns before it pass, and where upstream could not fetch a name, the
// failure must name it too. A directory without the
// file is not checked.
func CheckAborts(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "upstream-aborts.txt"))
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	app, err := filepath.Abs(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var file string
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(line, "== "); ok {
			file = f
			continue
		}
		if file == "" || strings.TrimSpace(line) == "" {
			continue
		}
		n++
		checkAbort(t, app, filepath.Join(dir, file), line)
		file = ""
	}
	if n == 0 {
		t.Errorf("%s: upstream-aborts.txt lists no fixture", dir)
	}
}

func checkAbort(t *testing.T, app, fixture, upstream string) {
	t.Helper()
	files, ds, err := flowtest.DiscoverUnder("", nil, []string{app}, fixture, false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover %s: %v (%d files)", fixture, err, len(files))
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("discover %s: %v", fixture, d)
		}
	}
	results := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files)
	got := flowtest.NewReport(results)
	n := 1
	if m := abortTurn.FindStringSubmatch(upstream); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	if len(results) == 1 && results[0].Fatal != nil {
		// the fixture stopped here too (an advance past a bound)
		checkFatalAbort(t, fixture, upstream, n, results[0].Fatal.Message, got)
		return
	}
	if len(got.Results) != 1 || len(got.Results[0].Turns) == 0 {
		t.Fatalf("%s: no turn ran", fixture)
	}
	turns := got.Results[0].Turns
	if n < 1 || n > len(turns) {
		t.Fatalf("%s: upstream aborts at turn %d, %d turns ran here", fixture, n, len(turns))
	}
	for _, tr := range turns[:n-1] {
		if !tr.Passed {
			t.Errorf("%s: turn %d failed before turn %d: %q", fixture, tr.TurnIndex+1, n, tr.Failures)
		}
	}
	at := turns[n-1]
	text := strings.Join(at.Failures, "\n")
	if at.Passed || !strings.Contains(text, "the turn failed") {
		t.Errorf("%s: turn %d did not fail (upstream: %s); failures: %q", fixture, n, upstream, at.Failures)
		return
	}
	if m := fetchText.FindStringSubmatch(upstream); m != nil && !strings.Contains(text, "cannot fetch "+m[1]) {
		t.Errorf("%s: turn %d failed without naming %q (upstream: %s): %s", fixture, n, m[1], upstream, text)
	}
}

// checkFatalAbort holds a fixture that stopped here (exit 2) to upstream's
// abort at turn n: its error names that turn and the turns before it passed.
// An abort naming no turn (the fixture could not start: a host_bindings
// reload) holds it to stopping before any turn.
func checkFatalAbort(t *testing.T, fixture, upstream string, n int, fatal string, got *flowtest.Report) {
	t.Helper()
	if abortTurn.FindStringSubmatch(upstream) == nil {
		if abortTurn.FindStringSubmatch(": "+fatal) != nil || len(got.Results) != 1 || len(got.Results[0].Turns) != 0 {
			t.Errorf("%s: stopped with %q after a turn ran; upstream stops before any: %s", fixture, fatal, upstream)
		}
		return
	}
	if m := abortTurn.FindStringSubmatch(": " + fatal); m == nil || m[1] != strconv.Itoa(n) {
		t.Errorf("%s: stopped with %q; upstream stops at turn %d: %s", fixture, fatal, n, upstream)
	}
	for _, r := range got.Results {
		for _, tr := range r.Turns {
			if tr.TurnIndex+1 < n && !tr.Passed {
				t.Errorf("%s: turn %d failed before turn %d: %q", fixture, tr.TurnIndex+1, n, tr.Failures)
			}
		}
	}
}
