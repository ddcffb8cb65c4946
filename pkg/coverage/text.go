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

// WriteUnreachedHints lists what no fixture reached, one per line (story
// text escaped for a terminal), with under each move hints (may be nil)
// knows the kitsoki run command that reaches it; p's paths are relative
// to base.
func WriteUnreachedHints(w io.Writer, p *Profile, hints *Hints, base string) {
	un := p.Unreached()
	if len(un) == 0 {
		return
	}
	fmt.Fprintf(w, "never reached by a fixture (%d):\n", len(un))
	hinted, slots := false, false
	for _, u := range un {
		var b strings.Builder
		fmt.Fprintf(&b, "  %s:%d:%d: %s %s", termsafe.Line(u.Path), u.Line, u.Col, u.Kind, termsafe.Line(u.Label))
		if u.State != "" && u.State != u.Label {
			fmt.Fprintf(&b, " (in %s)", termsafe.Line(u.State))
		}
		fmt.Fprintln(w, b.String())
		h, ok := hints.For(base, u)
		if !ok {
			continue
		}
		hinted = true
		switch {
		case !h.Found && h.Moved:
			fmt.Fprintf(w, "      no intent path from the root reaches %s: only a timeout, on_error or on_complete move leads there\n", termsafe.Line(clipName(h.State)))
		case !h.Found:
			fmt.Fprintf(w, "      no intent path from the root reaches %s: no move leads there\n", termsafe.Line(clipName(h.State)))
		default:
			cmd := h.Command()
			if cmd == "" {
				fmt.Fprintf(w, "      to reach %s: %d intents from the root, a command over %d bytes; start a fixture there instead (initial_state:)\n", termsafe.Line(clipName(h.State)), h.Path.Len(), MaxHintBytes)
				continue
			}
			slots = slots || h.needsSlot()
			fmt.Fprintf(w, "      to reach %s: %s\n", termsafe.Line(clipName(h.State)), termsafe.Line(cmd))
		}
	}
	if hinted {
		note := "intent paths: the fewest intents from the root to the state the move leaves from, guards ignored (a guard on the way may refuse an arm); timeouts, on_error and on_complete are not steps"
		if slots {
			note += "; give each --slot a VALUE"
		}
		fmt.Fprintln(w, note)
	}
}
