package main

import (
	"regexp"
	"slices"
	"strings"

	"kitsoki/pkg/flowtest"
)

// failuresDiff compares the failure texts of two turns as a user reads
// them, or is empty. They are compared as sets: upstream lists a map's
// failing keys in Go's random map order. A message that prints a world
// value is compared up to the value (upstream prints Go's %v, ours JSON:
// docs/compat/flowtest.md "Values in failure messages"); job ids are
// masked (noJobIDs).
func failuresDiff(ta, tb *flowtest.TurnResult) string {
	a, b := failureSet(ta.Failures), failureSet(tb.Failures)
	if slices.Equal(a, b) {
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
		f = noJobIDs(f)
		if m := valueMessage.FindString(f); m != "" {
			f = m + "…"
		}
		out = append(out, f)
	}
	slices.Sort(out)
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
