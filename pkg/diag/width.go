package diag

import (
	"unicode"

	"golang.org/x/text/width"
)

// cells is the number of terminal display cells s takes: East Asian wide
// and fullwidth characters and emoji take two, combining marks, zero-width
// joiners and variation selectors none, everything else one. The caret
// under a snippet is indented by the cells of the text before the column,
// not its runes.
func cells(s []rune) int {
	n := 0
	for _, r := range s {
		n += runeCells(r)
	}
	return n
}

func runeCells(r rune) int {
	switch {
	case r == 0x200d || (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0x1f3fb && r <= 0x1f3ff) || r == 0x200b:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return 0
	case r >= 0x1f000 && r <= 0x1faff, r >= 0x2600 && r <= 0x27bf && unicode.Is(unicode.So, r) && width.LookupRune(r).Kind() == width.EastAsianWide:
		return 2
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
