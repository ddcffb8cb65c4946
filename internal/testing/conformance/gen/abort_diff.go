package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"kitsoki/internal/testing/conformance"
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
// turn of the same fixture (any document of the file it names) must fail
// as a turn here too. ok is false when
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
	// Upstream's line names the file, not the document: a file of several
	// documents has one result each here, and the abort is in one of them.
	msg, ok = "", false
	for _, r := range ours.Results {
		if filepath.Base(r.File) != filepath.Base(m[1]) {
			continue
		}
		d, same := abortAt(r, n)
		if same {
			return "", true
		}
		if !ok {
			msg, ok = fmt.Sprintf("%s: upstream aborted at turn %d (%s), %s", m[1], n, clip(m[3]), d), true
		}
	}
	return msg, ok
}

// abortAt says whether result r stopped as upstream did at its 1-based
// turn n (the turn failed as a turn, or the fixture stopped right before
// it, and no turn before it failed as a turn: upstream would have stopped
// there); when not, what ran here instead.
func abortAt(r *flowtest.FlowResult, n int) (detail string, same bool) {
	for i, t := range r.Turns[:max(0, min(n-1, len(r.Turns)))] {
		if conformance.FailedAsTurn(t) {
			return fmt.Sprintf("turn %d failed as a turn here first", i+1), false
		}
	}
	if n == len(r.Turns)+1 && !r.Passed {
		return "", true // ours stopped the fixture there too (a recording miss: docs/compat/flowtest.md)
	}
	if n < 1 || n > len(r.Turns) {
		return fmt.Sprintf("%d turns ran here", len(r.Turns)), false
	}
	t := r.Turns[n-1]
	if conformance.FailedAsTurn(t) {
		return "", true
	}
	return fmt.Sprintf("ours: %q", t.Failures), false
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
