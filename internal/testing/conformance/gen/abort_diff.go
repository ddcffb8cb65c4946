package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"kitsoki/pkg/flowtest"
)

// abortLine is the last line upstream's flow rig writes when a turn error
// stops its whole run: the fixture and the 1-based turn.
var abortLine = regexp.MustCompile(`run flow "([^"]+)": turn (\d+): (.*)`)

// timingAbort is an abort of upstream's own waiting (a job that never
// parks, a listener that never idles): a race, not a verdict on the turn.
var timingAbort = regexp.MustCompile(`WaitIdle|WaitListenerIdle|context deadline exceeded`)

// abortDiff compares a story upstream aborted (it wrote no report, only
// the error naming the fixture and turn that stopped it, as
// internal/testing/conformance CheckAborts reads it) with ours: the same
// turn of the same fixture must fail as a turn here too. ok is false when
// the abort is not comparable (no such line, a timing abort, ours wrote no
// report); msg describes a difference.
func abortDiff(dir string, ours *flowtest.Report) (msg string, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, "existing.log"))
	if err != nil || ours == nil {
		return "", false
	}
	ms := abortLine.FindAllStringSubmatch(string(b), -1)
	if len(ms) == 0 {
		return "", false
	}
	m := ms[len(ms)-1]
	if timingAbort.MatchString(m[3]) {
		return "", false
	}
	n, _ := strconv.Atoi(m[2])
	for _, r := range ours.Results {
		if filepath.Base(r.File) != filepath.Base(m[1]) {
			continue
		}
		if n == len(r.Turns)+1 && !r.Passed {
			return "", true // ours stopped the fixture there too (a recording miss: docs/compat/flowtest.md)
		}
		if n < 1 || n > len(r.Turns) {
			return fmt.Sprintf("%s: upstream aborted at turn %d (%s), %d turns ran here", m[1], n, clip(m[3]), len(r.Turns)), true
		}
		t := r.Turns[n-1]
		if !t.Passed && strings.Contains(strings.Join(t.Failures, "\n"), "the turn failed") {
			return "", true
		}
		return fmt.Sprintf("%s turn %d: upstream aborted (%s), ours: %q", filepath.Base(m[1]), n-1, clip(m[3]), t.Failures), true
	}
	return "", false
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
