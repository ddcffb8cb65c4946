package view

import "kitsoki/pkg/view/textwrap"

// textWidth is the cell width of s (the widest line when s has several).
func textWidth(s string) int {
	best, n := 0, 0
	for _, r := range s {
		if r == '\n' {
			n = 0
			continue
		}
		n += textwrap.RuneWidth(r)
		if n > best {
			best = n
		}
	}
	return best
}
