package termsafe

import (
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// shortPathRunes bounds the path ShortPath returns.
const shortPathRunes = 120

// ShortPath is path for a one-line message: [Line], and a path longer
// than shortPathRunes runes (a directory thousands of levels deep) cut to
// its first two and last two elements around "…", each element itself
// cut if it alone is too long.
func ShortPath(path string) string {
	s := Line(path)
	if utf8.RuneCountInString(s) <= shortPathRunes {
		return s
	}
	sep := string(filepath.Separator)
	els := strings.Split(s, sep)
	if len(els) > 4 {
		els = []string{els[0], els[1], "…", els[len(els)-2], els[len(els)-1]}
	}
	for i, e := range els {
		if r := []rune(e); len(r) > shortPathRunes/5 {
			els[i] = string(r[:shortPathRunes/5]) + "…"
		}
	}
	return strings.Join(els, sep)
}
