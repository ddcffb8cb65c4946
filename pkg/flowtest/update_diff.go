package flowtest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"kitsoki/internal/termsafe"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// region is a run of whole lines of the old file replaced by new lines.
type region struct {
	oldFrom, oldTo int // 0-based old line numbers [from, to)
	newLines       []string
}

// WriteDiff prints the change as a unified diff built from the edits
// themselves, every line escaped for the terminal.
func (fu *FileUpdate) WriteDiff(w io.Writer) {
	old := splitLines(fu.Old)
	starts := lineStarts(fu.Old)
	lineOf := func(off int) int {
		i, at := slices.BinarySearch(starts, off)
		if !at {
			i-- // off lies inside the line starting before it
		}
		return i
	}
	// Each edit widened to whole lines; edits on the same or adjacent lines
	// merged (a block of - lines, then its + lines).
	var rs []region
	var pending []edit
	flush := func() {
		if len(pending) == 0 {
			return
		}
		from := lineOf(pending[0].start)
		to := lineOf(pending[len(pending)-1].end) + 1
		a, b := starts[from], len(fu.Old)
		if to < len(starts) {
			b = starts[to] - 1 // before the '\n'
		}
		local := make([]edit, len(pending))
		for i, e := range pending {
			local[i] = edit{e.start - a, e.end - a, e.text}
		}
		text := string(applyEdits(fu.Old[a:b], local))
		rs = append(rs, region{oldFrom: from, oldTo: min(to, len(old)), newLines: strings.Split(text, "\n")})
		pending = nil
	}
	for _, e := range fu.edits {
		if len(pending) > 0 && lineOf(e.start) > lineOf(pending[len(pending)-1].end)+1 {
			flush()
		}
		pending = append(pending, e)
	}
	flush()
	fmt.Fprintf(w, "--- %s\n+++ %s\n", termsafe.Line(fu.Path), termsafe.Line(fu.Path))
	delta := 0 // new line number minus old line number before the hunk
	for i := 0; i < len(rs); {
		// A hunk holds the regions whose contexts touch.
		j := i + 1
		for j < len(rs) && rs[j].oldFrom-rs[j-1].oldTo <= 2*diffContext {
			j++
		}
		from := max(0, rs[i].oldFrom-diffContext)
		to := min(len(old), rs[j-1].oldTo+diffContext)
		var body bytes.Buffer
		oldN, newN, at := 0, 0, from
		hunkDelta := delta
		unchanged := func(to int) { // the old lines before to, as context
			for ; at < to; at++ {
				fmt.Fprintf(&body, " %s\n", termsafe.Printable(old[at]))
				oldN++
				newN++
			}
		}
		for _, r := range rs[i:j] {
			unchanged(r.oldFrom)
			for ; at < r.oldTo; at++ {
				fmt.Fprintf(&body, "-%s\n", termsafe.Printable(old[at]))
				oldN++
			}
			for _, l := range r.newLines {
				fmt.Fprintf(&body, "+%s\n", termsafe.Printable(l))
				newN++
			}
			delta += len(r.newLines) - (r.oldTo - r.oldFrom)
		}
		unchanged(to)
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(from, oldN), hunkRange(from+hunkDelta, newN))
		_, _ = w.Write(body.Bytes())
		i = j
	}
}

// hunkRange is a unified diff range: 1-based start and length.
func hunkRange(from, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	if n == 1 {
		return fmt.Sprint(from + 1)
	}
	return fmt.Sprintf("%d,%d", from+1, n)
}

// splitLines splits a file into lines without their '\n' (a final
// newline ends the last line; it starts no new one).
func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" && len(b) == 0 {
		return nil
	}
	return strings.Split(s, "\n")
}
