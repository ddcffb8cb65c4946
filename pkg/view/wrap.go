package view

import "kitsoki/pkg/view/textwrap"

// runeWidth is the number of terminal cells r takes (textwrap.RuneWidth).
func runeWidth(r rune) int { return textwrap.RuneWidth(r) }

// textWidth is the cell width of s (the widest line when s has several).
func textWidth(s string) int {
	best, n := 0, 0
	for _, r := range s {
		if r == '\n' {
			n = 0
			continue
		}
		n += runeWidth(r)
		if n > best {
			best = n
		}
	}
	return best
}

// wordWrap wraps s at limit cells the way upstream's plain-text renderer
// does (textwrap.WordWrap).
func wordWrap(s string, limit int) string { return textwrap.WordWrap(s, limit) }
