package textwrap

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/parser"
	"github.com/rivo/uniseg"
	"golang.org/x/text/width"
)

// Width is the number of terminal cells s takes on one line, measured as
// upstream's renderer does (conformance view-grapheme-width): escape
// sequences take none, read by the DEC parser's transition table (a CSI to
// its final byte, an OSC 8 link to its ST or BEL; conformance
// view-width-ansi); a printable ASCII byte is one cell on its own (a
// control none), even when a combining mark follows it; any other text is
// cut into grapheme clusters (UAX #29, by uniseg) and each cluster takes
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
			cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
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

// RuneWidth is the number of terminal cells r takes: 2 for East Asian wide
// runes, 0 for combining marks, format and control characters (C1 too), the
// line and paragraph separators and the noncharacters U+FFFE and U+FFFF
// (conformance view-zero-width-runes), else 1.
func RuneWidth(r rune) int {
	switch {
	case r < 0x20 || r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	case unicode.Is(newerWide, r):
		return 2
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// newerWide holds the wide runes Unicode 15.1 and 16.0 added, which
// golang.org/x/text's (15.0) tables call narrow and upstream's call wide:
// ideographic description characters, CJK strokes and the new emoji.
var newerWide = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x2ffc, Hi: 0x2fff, Stride: 1},
		{Lo: 0x31e4, Hi: 0x31e5, Stride: 1},
		{Lo: 0x31ef, Hi: 0x31ef, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1fa89, Hi: 0x1fa8f, Stride: 6},
		{Lo: 0x1fabe, Hi: 0x1fabe, Stride: 1},
		{Lo: 0x1fac6, Hi: 0x1fac6, Stride: 1},
		{Lo: 0x1fadc, Hi: 0x1fadf, Stride: 3},
		{Lo: 0x1fae9, Hi: 0x1fae9, Stride: 1},
	},
}
