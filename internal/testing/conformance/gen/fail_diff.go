package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// failuresDiff compares the failure texts of two turns as a user reads
// them, or is empty. They are compared as sets (upstream lists a map's
// failing keys in Go's random map order), then by the order of the checks
// they come from (failureOrder). A message that prints a world
// value is compared up to the value (upstream prints Go's %v, ours JSON:
// docs/compat/flowtest.md "Values in failure messages"); job ids are
// masked (noJobIDs); ours' "left out:" lines after a failing view check
// are dropped.
func failuresDiff(ta, tb *flowtest.TurnResult) string {
	a, b := failureSet(ta.Failures), failureSet(tb.Failures)
	if slices.Equal(a, b) {
		if oa, ob := failureOrder(ta.Failures), failureOrder(tb.Failures); !slices.Equal(oa, ob) {
			return "failures in another order: ours " + quoteAll(ob) + ", existing " + quoteAll(oa)
		}
		return ""
	}
	var onlyA, onlyB []string
	for _, f := range a {
		if !slices.Contains(b, f) {
			onlyA = append(onlyA, f)
		}
	}
	for _, f := range b {
		if !slices.Contains(a, f) {
			onlyB = append(onlyB, f)
		}
	}
	return "failures differ: ours " + quoteAll(onlyB) + ", existing " + quoteAll(onlyA)
}

// valueMessage is a failure that prints world values after its key.
var valueMessage = regexp.MustCompile(`^((?:expect_world(?:_full|_final)?|expect_slots)\["[^"]*"\]: got |expect_world_unchanged: world\["[^"]*"\] changed from )`)

func failureSet(fs []string) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		// ours adds why a failing view check's element was left out
		// (docs/compat/flowtest.md "View checks")
		f, _, _ = strings.Cut(f, "\nleft out: ")
		f = conformance.NoIDs(f)
		if m := valueMessage.FindString(f); m != "" {
			f = m + "…"
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// failureOrder lists the checks a turn's failures come from (the text
// before the first '[' or ':'), in order, a check once per run of its
// failures: upstream checks in a fixed order (conformance
// expect-failure-order) and only a map's keys, within one check, come in
// random order.
func failureOrder(fs []string) []string {
	var out []string
	for _, f := range fs {
		label := f
		if i := strings.IndexAny(f, "[:"); i >= 0 {
			label = f[:i]
		}
		if len(out) == 0 || out[len(out)-1] != label {
			out = append(out, label)
		}
	}
	return out
}

func quoteAll(xs []string) string {
	var b strings.Builder
	b.WriteString("[")
	for i, x := range xs {
		if i > 0 {
			b.WriteString("; ")
		}
		if len(x) > 160 {
			x = x[:160] + "…"
		}
		b.WriteString(x)
	}
	b.WriteString("]")
	return b.String()
}

// summaryDiff compares the last two lines of the engines' text output
// (compare.sh's logs), `Summary: P/T flows pass` and `PASS`/`FAIL`, which
// kitsoki prints as upstream does for scripts that grep them; the lines
// above differ on purpose (docs/compat/flowtest.md). Empty when they
// agree or a log is missing.
func summaryDiff(exLog, oursLog string) string {
	a, errA := os.ReadFile(exLog)
	b, errB := os.ReadFile(oursLog)
	if errA != nil || errB != nil {
		return ""
	}
	la, lb := lastLines(string(a), 2), lastLines(string(b), 2)
	if la == lb {
		return ""
	}
	return "text output ends " + strconv.Quote(lb) + ", existing " + strconv.Quote(la)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
