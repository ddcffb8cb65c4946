package view

import (
	"strings"

	"kitsoki/pkg/view/textwrap"
)

// textWidth is the cell width of s (the widest line when s has several).
func textWidth(s string) int {
	best := 0
	for line := range strings.SplitSeq(s, "\n") {
		best = max(best, textwrap.Width(line))
	}
	return best
}
