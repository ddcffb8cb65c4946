package cmd

import (
	"io"

	"kitsoki/internal/termsafe"
)

// printableWriter escapes human output as termsafe.Printable does: control
// characters (a dataset's call, a report's model name, a manifest's
// summary can carry escape sequences) and any line a CI log would read as
// a workflow command. Each Write must be whole lines or one whole Fprintf,
// so no rune is split; the start of each Write counts as a line start.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, termsafe.Printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
