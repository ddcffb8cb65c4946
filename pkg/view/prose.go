package view

import (
	"strings"

	"kitsoki/internal/lazyre"
)

// proseRun is what a prose element folds to one space: a run of ASCII
// spaces, tabs, carriage returns and newlines. Other spaces (no-break,
// ideographic, em, \f, \v, NEL, line separator) are kept as written.
var proseRun = &lazyre.Regexp{Expr: `[ \t\r\n]+`}

// proseText is a prose element's text as upstream reflows it before the word
// wrap: each run of proseRun one space, the ends trimmed of every Unicode
// space (conformance view-prose-unicode-space).
func proseText(t string) string {
	return strings.TrimSpace(proseRun.ReplaceAllString(t, " "))
}
