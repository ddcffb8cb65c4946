package cmd

import (
	"strings"

	"kitsoki/internal/termsafe"
)

// cell is a value eval list and eval show print in a field of one line:
// a repository's dataset path, call, profile or model name holding a
// newline or tab would otherwise start a line or a column of its own (a
// forged "passing" row in eval list's tab-separated output).
func cell(s string) string {
	return strings.ReplaceAll(termsafe.Line(s), "\t", `\t`)
}
