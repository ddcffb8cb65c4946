package cmd

import (
	"fmt"
	"io"

	"kitsoki/internal/termsafe"

	"kitsoki/pkg/diag"
)

// warnDiag prints a run-time warning on one line: "kitsoki: warning:
// [file:line:col: ]message [rule]".
func warnDiag(w io.Writer, d diag.Diagnostic) {
	line := d.Message
	if p := d.Pos(); p != "" {
		line = p + ": " + line
	}
	if d.Rule != "" {
		line += " [" + d.Rule + "]"
	}
	fmt.Fprintf(w, "kitsoki: warning: %s\n", termsafe.Printable(line))
}

// warnLine returns a func printing a warning a package hands back as
// text (a walk's skipped directories) on one line: "kitsoki: warning: msg".
func warnLine(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintf(w, "kitsoki: warning: %s\n", termsafe.Printable(msg)) }
}
