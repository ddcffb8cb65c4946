package conformance

import (
	"context"
	"fmt"
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
// here the turn it names (the first when it names none) must fail as a
// turn, or stop the fixture with an error naming it, and where upstream
// could not fetch a name, the failure must name it too. The turns before it
// must not fail as a turn (upstream would have stopped there), but they may
// fail their expectations: upstream goes on past those, and its abort
// leaves no report saying whether they passed. A directory without the
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
		for _, p := range abortProblems(app, filepath.Join(dir, file), line) {
			t.Error(p)
		}
		file = ""
	}
	if n == 0 {
		t.Errorf("%s: upstream-aborts.txt lists no fixture", dir)
	}
}

// abortProblems runs fixture (of app) here and says how it differs from
// upstream's abort, the error line upstream printed; none when it agrees.
func abortProblems(app, fixture, upstream string) []string {
	files, ds, err := flowtest.DiscoverUnder("", nil, []string{app}, fixture, false, nil)
	if err != nil || len(files) != 1 {
		return []string{fmt.Sprintf("discover %s: %v (%d files)", fixture, err, len(files))}
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			return []string{fmt.Sprintf("discover %s: %v", fixture, d)}
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
		return fatalAbortProblems(fixture, upstream, n, results[0].Fatal.Message, got)
	}
	if len(got.Results) != 1 || len(got.Results[0].Turns) == 0 {
		return []string{fixture + ": no turn ran"}
	}
	turns := got.Results[0].Turns
	if n < 1 || n > len(turns) {
		return []string{fmt.Sprintf("%s: upstream aborts at turn %d, %d turns ran here", fixture, n, len(turns))}
	}
	probs := failedBefore(fixture, turns, n)
	at := turns[n-1]
	text := strings.Join(at.Failures, "\n")
	if !FailedAsTurn(at) {
		return append(probs, fmt.Sprintf("%s: turn %d did not fail (upstream: %s); failures: %q", fixture, n, upstream, at.Failures))
	}
	if m := fetchText.FindStringSubmatch(upstream); m != nil && !strings.Contains(text, "cannot fetch "+m[1]) {
		probs = append(probs, fmt.Sprintf("%s: turn %d failed without naming %q (upstream: %s): %s", fixture, n, m[1], upstream, text))
	}
	// which view failed to render, worded as upstream's machine.Turn does
	for _, which := range []string{"render transition view: ", "render state view for "} {
		if strings.Contains(upstream, which) && !strings.Contains(text, which) {
			probs = append(probs, fmt.Sprintf("%s: turn %d failed without %q (upstream: %s): %s", fixture, n, which, upstream, text))
		}
	}
	return probs
}

// failedAsTurn says whether a turn failed with its own error (upstream's
// abort), not only on what the fixture expected of it.
func FailedAsTurn(tr *flowtest.TurnResult) bool {
	return !tr.Passed && strings.Contains(strings.Join(tr.Failures, "\n"), "the turn failed")
}

// failedBefore names each turn before the 1-based turn n that failed as a
// turn: upstream would have stopped there, not at n. A turn that failed
// only its expectations is upstream's too, unreported.
func failedBefore(fixture string, turns []*flowtest.TurnResult, n int) []string {
	var probs []string
	for _, tr := range turns {
		if tr.TurnIndex+1 < n && FailedAsTurn(tr) {
			probs = append(probs, fmt.Sprintf("%s: turn %d failed as a turn before turn %d: %q", fixture, tr.TurnIndex+1, n, tr.Failures))
		}
	}
	return probs
}

// fatalAbortProblems holds a fixture that stopped here (exit 2) to
// upstream's abort at turn n: its error names that turn and no turn before
// it failed as a turn. An abort naming no turn (the fixture could not
// start: a host_bindings reload) holds it to stopping before any turn.
func fatalAbortProblems(fixture, upstream string, n int, fatal string, got *flowtest.Report) []string {
	if abortTurn.FindStringSubmatch(upstream) == nil {
		if abortTurn.FindStringSubmatch(": "+fatal) != nil || len(got.Results) != 1 || len(got.Results[0].Turns) != 0 {
			return []string{fmt.Sprintf("%s: stopped with %q after a turn ran; upstream stops before any: %s", fixture, fatal, upstream)}
		}
		return nil
	}
	var probs []string
	if m := abortTurn.FindStringSubmatch(": " + fatal); m == nil || m[1] != strconv.Itoa(n) {
		probs = append(probs, fmt.Sprintf("%s: stopped with %q; upstream stops at turn %d: %s", fixture, fatal, n, upstream))
	}
	for _, r := range got.Results {
		probs = append(probs, failedBefore(fixture, r.Turns, n)...)
	}
	return probs
}
