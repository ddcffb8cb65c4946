package diag

import (
	"bytes"
	"strings"
)

// IgnoreMarker starts an inline suppression comment in a YAML file:
//
//   - say: "x"   # kitsoki:ignore effect-multiple-kinds
//     # kitsoki:ignore unreachable-state,unused-intent
//     orphan: {}
//
// A marker applies to its own line, or to the next line when the comment
// stands alone on its line. With no rule ids it suppresses every rule on that
// line. Only warnings can be suppressed: an error means the engine would
// refuse the story, and hiding it would only move the failure to run time.
const IgnoreMarker = "kitsoki:ignore"

// FilterIgnored drops warnings suppressed by an inline marker. src returns
// the file's bytes (ok=false when unreadable: nothing is dropped).
func FilterIgnored(ds []Diagnostic, src func(file string) ([]byte, bool)) []Diagnostic {
	out := ds[:0:0]
	lines := map[string][][]byte{}
	for _, d := range ds {
		if d.Severity != Warning || d.Line <= 0 {
			out = append(out, d)
			continue
		}
		ls, seen := lines[d.File]
		if !seen {
			if data, ok := src(d.File); ok {
				ls = bytes.Split(data, []byte("\n"))
			}
			lines[d.File] = ls
		}
		if suppressed(ls, d.Line, d.Rule) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func suppressed(ls [][]byte, line int, rule string) bool {
	if line-1 < len(ls) && markerCovers(string(ls[line-1]), rule) {
		return true
	}
	if line-2 >= 0 && line-2 < len(ls) {
		prev := strings.TrimSpace(string(ls[line-2]))
		if strings.HasPrefix(prev, "#") && markerCovers(prev, rule) {
			return true
		}
	}
	return false
}

func markerCovers(line, rule string) bool {
	i := strings.Index(line, "#")
	if i < 0 {
		return false
	}
	comment := line[i:]
	j := strings.Index(comment, IgnoreMarker)
	if j < 0 {
		return false
	}
	rest := strings.TrimSpace(comment[j+len(IgnoreMarker):])
	if rest == "" {
		return true
	}
	for _, id := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if id == rule {
			return true
		}
	}
	return false
}
