package textwrap

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/parser"
	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
)

// Width is the number of terminal cells s takes on one line, measured as
// upstream's renderer does (conformance view-grapheme-width): escape
// sequences take none, read by the DEC parser's transition table (a CSI to
// its final byte, an OSC 8 link to its ST or BEL; conformance
// view-width-ansi); a printable ASCII byte is one cell on its own (a
// control none), even when a combining mark follows it; any other text is
// cut into grapheme clusters (UAX #29 of Unicode 17, by uax29, Indic
// conjuncts included; conformance view-width-unicode17) and each cluster takes
// the width of its first rune, two cells for a regional indicator (a flag
// or a lone one) or when U+FE0F (emoji presentation) follows the first
// rune. So a ZWJ family, a skin-toned emoji, a flag and "❤️" are two
// cells, a prepend mark (U+0600) and what it joins none.
func Width(s string) int {
	n := 0
	state := parser.GroundState
	for i := 0; i < len(s); i++ {
		next, action := parser.Table.Transition(state, s[i])
		if next == parser.Utf8State {
			cluster := graphemes.FromString(s[i:]).First()
			n += clusterWidth(cluster)
			i += len(cluster) - 1
			state = parser.GroundState
			continue
		}
		if action == parser.PrintAction {
			n++
		}
		state = next
	}
	return n
}

// clusterWidth is the cell width of one grapheme cluster.
func clusterWidth(cluster string) int {
	r, size := utf8.DecodeRuneInString(cluster)
	if r >= 0x1f1e6 && r <= 0x1f1ff { // regional indicator
		return 2
	}
	w := RuneWidth(r)
	if w > 0 && strings.ContainsRune(cluster[size:], 0xfe0f) {
		return 2
	}
	return w
}

// RuneWidth is the number of terminal cells r takes: 0 for combining
// marks, format and control characters (C1 too), the line and paragraph
// separators and the noncharacters U+FFFE and U+FFFF (conformance
// view-zero-width-runes), 2 for the runes Unicode 17's East Asian Width
// calls wide or fullwidth (displaywidth's table: the hexagrams and the
// emoji Unicode 16 and 17 made wide too; conformance view-width-unicode17),
// else 1.
func RuneWidth(r rune) int {
	switch {
	case r < 0x20 || r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	case displaywidth.Rune(r) == 2:
		return 2
	}
	return 1
}
