package yamlnode

// Suggest returns the known name closest to name by edit distance, or ""
// when nothing is close enough to be a plausible typo: the one
// did-you-mean of kitsoki's messages. A name of up to five characters may
// be one edit away, longer ones up to a third of their length (at most
// three); an adjacent transposition counts as one edit; ties go to the
// name that sorts first.
func Suggest(name string, known []string) string {
	best, bestD := "", -1
	for _, k := range known {
		d := editDistance(name, k)
		if bestD < 0 || d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	limit := min(max(len(name)/3, 1), 3)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance with adjacent transpositions
// counted as one edit (optimal string alignment), over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
