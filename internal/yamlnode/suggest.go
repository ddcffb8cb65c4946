package yamlnode

// DidYouMean is "did you mean `x`?" for the known name x closest to name
// ([Suggest]), "" when none is close: kitsoki's one wording of a
// suggestion, in every file it reads, which the editor's quick fix reads
// back (pkg/lsp).
func DidYouMean(name string, known []string) string {
	if s := Suggest(name, known); s != "" {
		return Meant(s)
	}
	return ""
}

// Meant is the wording of [DidYouMean] for a suggestion the caller chose
// itself (a state path spelled relative to the arm that names it).
func Meant(s string) string {
	return "did you mean `" + s + "`?"
}

// Suggest returns the known name closest to name by edit distance, or ""
// when none is a plausible typo (up to four characters one edit, five to
// eight two, longer a third of their length, at most three; a
// transposition is one edit; ties
// go to the name that sorts first). name itself is never suggested: a
// caller asks only when its own lookup did not find name, and "did you
// mean x?" for x would send the author to the spelling they already wrote.
func Suggest(name string, known []string) string {
	limit := suggestLimit(name)
	var buf [maxRunes]rune
	a, long := runesOf(name, &buf)
	best, bestD := "", limit+1
	for _, k := range known {
		if k == name {
			continue
		}
		var d int
		if long {
			d = farDistance(name, k)
		} else {
			d = boundedDistance(a, k, bestD)
		}
		if d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	if bestD > limit {
		return ""
	}
	return best
}

// maxRunes is the longest name compared by edit distance (longer: equality).
const maxRunes = 64

// farDistance is the edit distance for a name longer than maxRunes runes.
func farDistance(a, b string) int {
	if a == b {
		return 0
	}
	return 1 << 20
}

// runesOf decodes s into buf; long reports s has more than maxRunes runes.
func runesOf(s string, buf *[maxRunes]rune) (r []rune, long bool) {
	n := 0
	for _, c := range s {
		if n == maxRunes {
			return nil, true
		}
		buf[n] = c
		n++
	}
	return buf[:n], false
}

// boundedDistance is the rune edit distance (a transposition one edit) of
// string(a) and b when at most bound, else more; it allocates nothing.
func boundedDistance(a []rune, b string, bound int) int {
	var buf [maxRunes]rune
	rb, long := runesOf(b, &buf)
	if long {
		return farDistance(string(a), b)
	}
	if abs(len(a)-len(rb)) > bound {
		return bound + 1
	}
	var rows [3][maxRunes + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(rb); j++ {
		prev[j] = j
	}
	prevOver := false
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if a[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == rb[j-2] && a[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		over := rowMin > bound
		if over && prevOver {
			return bound + 1
		}
		prevOver = over
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// suggestLimit is the most edits Suggest accepts for name: one up to four
// characters, two from five ("stail" for "stale": two letters swapped for
// one sound), a third of the length past that, at most three.
func suggestLimit(name string) int {
	if len(name) == 5 {
		return 2
	}
	return min(max(len(name)/3, 1), 3)
}
