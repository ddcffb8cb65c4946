package main

import (
	"fmt"
	"strconv"
	"strings"
)

// -text wide (view, tmpl, agent, flow and legacy kinds) adds to a kind's text pool the
// values recent differences came from (conformance view-code-cr,
// view-width-unicode17, view-width-vs16, view-width-ansi): carriage
// returns where a code element trims, Indic conjuncts that are one
// cluster by Unicode 15.1 and 17 (and the scripts whose are not), the
// runes Unicode 16 and 17 made wide, U+FE0F at and after a cluster's
// first rune, and escape sequences a terminal parser ends where the word
// wrap does not. -coalesce unspaced draws kitsoki's `??` without the
// spaces around it, or with tabs or one side's (pongo-coalesce-unspaced).
// Both draw nothing when not asked for, so a seed's stories stay the
// same bytes.
type textOpts struct {
	wide, unspaced bool
}

// wideTexts are -text wide's values. Runes outside the BMP are written
// as literal UTF-8 (unescapeAstral): yaml.v3's \U escape is dropped by
// upstream's YAML reader.
var wideTexts = []string{
	// carriage returns (view-code-cr)
	"ok\r\n", "one\r\ntwo\r\n\r\n", "50%\r100%\r", "a\n\r", "\r", "\r\n", "x\ry", "\r\nlead",
	// conjuncts one cluster and one cell, and those that are not
	"क्षि स्त्र", "ক্ষક્ષକ୍ଷక్షക്ഷ", "क्\u200dष", "क़्ष", "\u1780\u17d2\u179f \u1000\u1039\u1001 \u1b13\u1b44\u1b31",
	"\u0b95\u0bcd\u0bb7 \u0c95\u0ccd\u0cb7 \u0a15\u0a4d\u0a38 \u0d9a\u0dca\u200d\u0dc2",
	"क्षि\nab", "नमस्ते दुनिया यह एक लंबी पंक्ति है जो अस्सी कोशिकाओं से आगे जाती है ताकि यह कहीं मुड़ जाए",
	// runes Unicode 16 and 17 made wide, and neighbours that stay narrow
	"\U0001FAC8\U0001F6D8\U0001FA8A", "☰☱ ⚊⚋ ䷀䷁", "\U0001D300\U0001D360", "\U00018800\U00018B00\U00018D00",
	"\U0002FFFE\U0003FFFF", "\U0001FAC8\nabc", "a \U0001F600 b", "\U0001F468\u200d\U0001F469\u200d\U0001F467",
	// U+FE0F right after the first rune, and further on
	"❤\ufe0f", "\u0301\ufe0f", "\u200d\ufe0f", "é\u0301\ufe0f", "क्ष\ufe0f", "❤\ufe0e\ufe0f", "\u00ad\ufe0f", "#\ufe0f\u20e3",
	// escape sequences
	"\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "\x1b1234567", "\x1b[?25lhid", "\x1b(Bcs", "end\x1b",
	"\x1b[31mred red red red red red red red red red red red red red red red red red red red red red\x1b[0m",
}

// wideAny is wideTexts as values of any shape.
var wideAny = func() []any {
	out := make([]any, len(wideTexts))
	for i, s := range wideTexts {
		out[i] = s
	}
	return out
}()

// pool is base, or base and wideTexts under -text wide.
func (o textOpts) pool(base []string) []string {
	if !o.wide {
		return base
	}
	return append(append([]string(nil), base...), wideTexts...)
}

// coalesce is kitsoki's `??` as the draw writes it: ` ?? ` unless
// -coalesce unspaced, which picks a spacing with pick.
func (o textOpts) coalesce(pick func(...string) string) string {
	if !o.unspaced {
		return " ?? "
	}
	return pick("??", " ??", "?? ", "\t??\t", " ?? ", "??  ")
}

// unescapeAstral writes yaml.v3's \UXXXXXXXX escapes in a double-quoted
// scalar as the literal rune: a YAML reader takes either, upstream's
// only the second. A doubled backslash is kept as it is.
func unescapeAstral(b []byte) []byte {
	s := string(b)
	if !strings.Contains(s, `\U`) {
		return b
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			out.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'U' && i+10 <= len(s) {
			if r, err := strconv.ParseUint(s[i+2:i+10], 16, 32); err == nil {
				out.WriteRune(rune(r))
				i += 9
				continue
			}
		}
		out.WriteString(s[i : i+2])
		i++
	}
	return []byte(out.String())
}

// writeText is writeFiles, with literalAstral first under -text wide.
func writeText(d string, files []agentFile, t textOpts) error {
	if t.wide {
		var err error
		if files, err = literalAstral(files); err != nil {
			return fmt.Errorf("story %s: %w", d, err)
		}
	}
	return writeFiles(d, files)
}

// literalAstral is files with their YAML bodies marshalled and the
// astral escapes in them written as runes (unescapeAstral), for -text
// wide.
func literalAstral(files []agentFile) ([]agentFile, error) {
	out := make([]agentFile, len(files))
	for i, f := range files {
		if _, text := f.body.(string); text {
			out[i] = f
			continue
		}
		b, err := fileBytes(f)
		if err != nil {
			return nil, err
		}
		out[i] = agentFile{f.name, unescapeAstral(b)}
	}
	return out, nil
}
