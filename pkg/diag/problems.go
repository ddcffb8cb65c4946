package diag

import (
	"fmt"
	"strings"
)

// Problems renders an error that lists problems: "<head> (N problem[s]):"
// then each problem on its own indented line.
func Problems[P fmt.Stringer](head string, ps []P) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d problem", head, len(ps))
	if len(ps) != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range ps {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}
