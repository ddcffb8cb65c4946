package aliasmb

import "strings"

// Text is the bytes of text the anchor mb and each alias of it repeat.
const Text = 1_000_000

// Anchors is a YAML flow mapping that anchors unit, 1,000 bytes of text,
// and mb, a list of 1,000 aliases of unit: mb's own list spends Text of a
// file's allowance, and so does each *mb after it. It fits wherever a
// mapping does (a top-level x- key, a slots: value).
func Anchors() string {
	return "{unit: &unit " + strings.Repeat("v", 1000) + ", mb: &mb [" + strings.Repeat("*unit, ", 999) + "*unit]}"
}
