package story

import "kitsoki/internal/yamlnode"

// IncrementText is the delta the existing engine reads from an increment:
// value written as text, and whether it loads at all (decimal cut toward
// zero; see yamlnode.IntegerText and conformance increment-text,
// increment-big).
func IncrementText(s string) (int, bool) {
	v, _, problem := yamlnode.IntegerText(s)
	return int(v), problem == ""
}

// IncrementFloat is the delta read from a number with a point (see yamlnode.IntegerFloat).
func IncrementFloat(f float64) (n int, exact, ok bool) {
	v, exact, problem := yamlnode.IntegerFloat(f)
	return int(v), exact, problem == ""
}
