package diag

import (
	"unicode"

	"golang.org/x/text/width"
)

// cells is the number of terminal display cells s takes (wide characters
// and emoji two, combining marks and joiners none), for a snippet's caret.
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
