package story

import (
	"bytes"
	"fmt"
	"strings"
)

// misindented finds the line yaml.v3's "did not find expected key" is
// about: yaml.v3 names the line where the block mapping began (states:),
// not the key whose indentation lines up with no key above it. It returns
// that line (at or after from, 1-based), its column and how to mend it,
// or 0 when no such line is found. Block scalar bodies are skipped, since
// their lines may be indented anyhow.
func misindented(data []byte, from int) (line, col int, fix string) {
	levels := []int{}
	block := -1 // indentation of the key whose block scalar body is being skipped
	for i, raw := range bytes.Split(data, []byte("\n")) {
		text := strings.TrimRight(string(raw), " \r")
		body := strings.TrimLeft(text, " ")
		ind := len(text) - len(body)
		if body == "" || body[0] == '#' {
			continue
		}
		if block >= 0 && ind > block {
			continue
		}
		block = -1
		deeper := -1
		for len(levels) > 0 && levels[len(levels)-1] > ind {
			deeper = levels[len(levels)-1]
			levels = levels[:len(levels)-1]
		}
		if n := len(levels); deeper >= 0 && (n == 0 || levels[n-1] != ind) && i+1 >= from {
			fix = fmt.Sprintf("this line is indented %d spaces, which lines it up with no key above it: indent it as the key it stands beside", ind)
			if n > 0 {
				fix += fmt.Sprintf(" (%d or %d spaces)", levels[n-1], deeper)
			}
			return i + 1, ind + 1, fix
		}
		if len(levels) == 0 || levels[len(levels)-1] != ind {
			levels = append(levels, ind)
		}
		if item, ok := strings.CutPrefix(body, "- "); ok {
			levels = append(levels, ind+2+len(item)-len(strings.TrimLeft(item, " ")))
		}
		if blockScalarStart(body) {
			block = ind
		}
	}
	return 0, 0, ""
}

// blockScalarStart reports whether a line's text ends in a block scalar
// indicator (key: |, - >-, key: |2): its body follows on deeper lines.
func blockScalarStart(body string) bool {
	if i := strings.Index(body, " #"); i >= 0 {
		body = strings.TrimRight(body[:i], " ")
	}
	j := strings.LastIndexAny(body, "|>")
	if j < 0 || (j > 0 && body[j-1] != ' ') {
		return false
	}
	return strings.Trim(body[j+1:], "+-0123456789") == ""
}
