package cmd

import "strings"

// screen replays terminal output the way a terminal shows it: \r returns
// to column 0, ESC[K erases to the end of the line, other escape
// sequences are dropped, \n starts a new line. It returns the lines.
func screen(raw string) []string {
	lines := []string{""}
	col := 0
	put := func(r rune) {
		cur := []rune(lines[len(lines)-1])
		for len(cur) < col {
			cur = append(cur, ' ')
		}
		if col < len(cur) {
			cur[col] = r
		} else {
			cur = append(cur, r)
		}
		lines[len(lines)-1] = string(cur)
		col++
	}
	rs := []rune(raw)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\r':
			col = 0
		case r == '\n':
			lines = append(lines, "")
			col = 0
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
				j++
			}
			if j < len(rs) && rs[j] == 'K' {
				cur := []rune(lines[len(lines)-1])
				if col < len(cur) {
					lines[len(lines)-1] = string(cur[:col])
				}
			}
			i = j
		case r < 0x20:
		default:
			put(r)
		}
	}
	return lines
}

// lineStartingWith returns the screen line that starts with prefix.
func lineStartingWith(lines []string, prefix string) (string, bool) {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return l, true
		}
	}
	return "", false
}
