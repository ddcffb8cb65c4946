package cmd

import (
	"strings"

	"kitsoki/internal/termsafe"
)

// cell escapes a value printed in a field of one line, where a newline or
// tab could forge a row or column.
func cell(s string) string {
	return strings.ReplaceAll(termsafe.Line(s), "\t", `\t`)
}
