package lint

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHexEscape = &Rule{ID: "hex-escape", Severity: diag.Warning, LintOnly: true,
	Summary: "a \\x, \\u or \\U escape in a double-quoted string of a view (any form or element, keys included) or a world default (at any depth): the existing engine drops the escape there and reads the character after it as an escape of its own (\"\\u0041n\" shows a line break, \"[\\u00e9]\" does not load); kitsoki reads the character, as YAML says. Other places (set:, say:, emit slots, flow fixtures) read it on both",
	Example: "view: \"caf\\u00e9 ready\""}

// checkHexEscapes warns at each hex escape story.Load found in a view
// (a state's or a transition's) or a world default: both engines agree
// only when the character is written itself (docs/compat/story.md).
func checkHexEscapes(c *checker) {
	for _, s := range c.states() {
		eachView(s, func(v *story.View, _ elemPlace) {
			for _, e := range v.HexEscapes {
				reportHexEscape(c, e, "a view")
			}
		})
	}
	for _, w := range c.st.World {
		for _, e := range w.HexEscapes {
			reportHexEscape(c, e, "the default of world."+w.Name)
		}
	}
}

// reportHexEscape warns at e, found in where.
func reportHexEscape(c *checker, e story.HexEscape, where string) {
	fix := "write the character itself"
	if r, ok := hexEscapeRune(e.Text); ok && unicode.IsGraphic(r) && !unicode.IsSpace(r) {
		fix += " (" + string(r) + ")"
	} else if ok {
		fix = "write the character itself, or the text in a block scalar (| or >)"
	}
	c.rep.Warnf(e.Pos, ruleHexEscape, "%s in a double-quoted string of %s: the existing engine drops the escape and %s, where kitsoki reads the character; fix: %s",
		e.Text, where, upstreamAfterHex(e.Next), fix)
}

// hexEscapeRune decodes text (`\u00e9`).
func hexEscapeRune(text string) (rune, bool) {
	if len(text) < 3 {
		return 0, false
	}
	n, err := strconv.ParseUint(text[2:], 16, 32)
	if err != nil || n > unicode.MaxRune {
		return 0, false
	}
	return rune(n), true
}

// singleEscapes are YAML's one-character escapes, by what each stands for.
var singleEscapes = map[byte]string{
	'0': "a NUL byte", 'a': "a bell", 'b': "a backspace", 't': "a tab", '\t': "a tab",
	'n': "a line break", 'v': "a vertical tab", 'f': "a form feed", 'r': "a carriage return",
	'e': "an escape character", ' ': "a space", '/': "a slash",
	'N': "U+0085", '_': "a no-break space", 'L': "U+2028", 'P': "U+2029",
}

// upstreamAfterHex says what the existing engine makes of next, the text
// after a dropped hex escape, which it reads as an escape.
func upstreamAfterHex(next string) string {
	if next == "" {
		return "reads the line break after it as escaped (the next line joins this one)"
	}
	c := next[0]
	switch {
	case c == '"':
		return "reads the closing quote after it as \\\", so the string does not end and the story does not load"
	case c == 'x' || c == 'u' || c == 'U':
		esc := next[:min(len(next), 1+map[byte]int{'x': 2, 'u': 4, 'U': 8}[c])]
		return "reads the `" + esc + "` after it as the escape `\\" + esc + "`"
	case c == '\\':
		return "reads the backslash of the escape after it as an escaped backslash (`\\u0041\\u0042` shows `\\`)"
	case singleEscapes[c] != "":
		return "reads `\\" + string(c) + "` after it as " + singleEscapes[c]
	}
	r, _ := utf8.DecodeRuneInString(next)
	return "reads `\\" + string(r) + "` after it as an unknown escape, so the story does not load"
}
