package textwrap

import (
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
// cut into grapheme clusters by Unicode 17's rules (uax29: an Indic
// conjunct is one) and each cluster takes displaywidth's width: its first
// rune's by Unicode 17's East Asian Width (combining marks, format and
// control runes, U+2028, U+2029, U+FFFE and U+FFFF none; conformance
// view-zero-width-runes), two for a regional indicator, and two when U+FE0F
// comes right after the first rune, whatever that rune is (conformance
// view-width-unicode17, view-width-vs16). So a ZWJ family, a skin-toned
// emoji, a flag and "❤️" are two cells, a prepend mark (U+0600) and what it
// joins none, "é\u0301\ufe0f" one.
func Width(s string) int {
	n := 0
	state := parser.GroundState
	for i := 0; i < len(s); i++ {
		next, action := parser.Table.Transition(state, s[i])
		if next == parser.Utf8State {
			cluster := graphemes.FromString(s[i:]).First()
			n += displaywidth.String(cluster)
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
