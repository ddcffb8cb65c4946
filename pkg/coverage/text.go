package coverage

import (
	"fmt"
	"io"
	"strings"

	"kitsoki/internal/termsafe"
)

// SummaryLine is the one-line summary kitsoki test --cover prints:
// "coverage: 71.4% of arcs (25/35), 80.0% of states (16/20)".
func SummaryLine(s Summary) string {
	return "coverage: " + figure(s.Arcs, "arcs") + ", " + figure(s.States, "states")
}

func figure(f Figure, what string) string {
	if f.Total == 0 {
		return "no " + what
	}
	return fmt.Sprintf("%.1f%% of %s (%d/%d)", f.Percent(), what, f.Reached, f.Total)
}

// WriteUnreached lists what no fixture reached, one per line as
// file:line:col: kind label (state), story text escaped for a terminal.
func WriteUnreached(w io.Writer, p *Profile) {
	un := p.Unreached()
	if len(un) == 0 {
		return
	}
	fmt.Fprintf(w, "never reached by a fixture (%d):\n", len(un))
	for _, u := range un {
		var b strings.Builder
		fmt.Fprintf(&b, "  %s:%d:%d: %s %s", termsafe.Line(u.Path), u.Line, u.Col, u.Kind, termsafe.Line(u.Label))
		if u.State != "" && u.State != u.Label {
			fmt.Fprintf(&b, " (in %s)", termsafe.Line(u.State))
		}
		fmt.Fprintln(w, b.String())
	}
}
