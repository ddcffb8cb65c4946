package flowtest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
)

// maxViewCells bounds the approximate search of a literal pattern in a
// view (pattern length times view length).
const maxViewCells = 2 << 20

// repairView is the expect_view_matches pattern that matches view now,
// as close to the old one as can be: its space runs realigned, or a
// literal pattern replaced by the view's closest text (a quarter edited at most).
func repairView(pattern, view string) (string, error) {
	if p, ok := respace(pattern, view); ok {
		return p, nil // the same words, aligned anew
	}
	switch {
	case regexp.QuoteMeta(pattern) != pattern:
		return "", fmt.Errorf("the regular expression %q no longer matches the view, and --update rewrites only literal text and the widths of space runs in one; edit it by hand", clip(pattern))
	case pattern == "": // (respace finds no space run in it)
		return "", fmt.Errorf("an empty pattern matches any view")
	}
	got, dist, ok := closest([]rune(pattern), []rune(view))
	if !ok {
		return "", fmt.Errorf("the view is too long to search for text close to %q; edit it by hand", clip(pattern))
	}
	if limit := max(1, len([]rune(pattern))/4); dist > limit {
		return "", fmt.Errorf("the view holds nothing close to %q (the nearest text differs in %d characters); edit it by hand", clip(pattern), dist)
	}
	return regexp.QuoteMeta(got), nil
}

// closest is the substring of view fewest edits from pat (Sellers'
// approximate search with a traceback).
func closest(pat, view []rune) (string, int, bool) {
	m, n := len(pat), len(view)
	if m*(n+1) > maxViewCells {
		return "", 0, false
	}
	w := n + 1
	d := make([]int32, (m+1)*w)
	for i := 1; i <= m; i++ {
		d[i*w] = int32(i)
		for j := 1; j <= n; j++ {
			cost := int32(1)
			if pat[i-1] == view[j-1] {
				cost = 0
			}
			d[i*w+j] = min(d[(i-1)*w+j-1]+cost, d[(i-1)*w+j]+1, d[i*w+j-1]+1)
		}
	}
	best := slices.Min(d[m*w : m*w+n+1])
	// of the best ends, the match nearest the pattern's length, then leftmost
	from, to, tried := 0, 0, 0
	for end := 0; end <= n && tried < 64; end++ {
		if d[m*w+end] != best {
			continue
		}
		tried++
		start := traceStart(d, w, pat, view, end)
		if tried == 1 || abs(end-start-m) < abs(to-from-m) {
			from, to = start, end
		}
	}
	return string(view[from:to]), int(best), true
}

// traceStart follows the least-edit path back from the match ending at
// end to where it starts, preferring matches and substitutions.
func traceStart(d []int32, w int, pat, view []rune, end int) int {
	i, j := len(pat), end
	for i > 0 {
		cost := int32(1)
		if j > 0 && pat[i-1] == view[j-1] {
			cost = 0
		}
		switch {
		case j > 0 && d[i*w+j] == d[(i-1)*w+j-1]+cost:
			i, j = i-1, j-1
		case d[i*w+j] == d[(i-1)*w+j]+1:
			i--
		default:
			j--
		}
	}
	return j
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// spaceRuns are the runs of spaces of a pattern; quantifiedSpaces one
// that a quantifier follows.
var (
	spaceRuns        = &lazyre.Regexp{Expr: ` +`}
	quantifiedSpaces = &lazyre.Regexp{Expr: ` +[*+?{]`}
)

// respace rewrites a pattern's space runs to the widths the view has
// where the pattern, its runs loosened to " +", first matches; false when
// none, or when its spaces are not plain text.
func respace(pattern, view string) (string, bool) {
	if strings.ContainsAny(pattern, "[") || strings.Contains(pattern, `\ `) {
		return "", false
	}
	if quantifiedSpaces.MatchString(pattern) {
		return "", false // a run is quantified: not plain text
	}
	parts := spaceRuns.Get().Split(pattern, -1)
	if len(parts) < 2 {
		return "", false
	}
	var loose strings.Builder
	for k, p := range parts {
		if k > 0 {
			fmt.Fprintf(&loose, "(?P<kitsokiws%d> +)", k)
		}
		loose.WriteString(p)
	}
	re, err := regexp.Compile(loose.String())
	if err != nil {
		return "", false
	}
	m := re.FindStringSubmatchIndex(view)
	if m == nil {
		return "", false
	}
	var out strings.Builder
	for k, p := range parts {
		if k > 0 {
			g := re.SubexpIndex(fmt.Sprintf("kitsokiws%d", k))
			if g < 0 || m[2*g] < 0 {
				return "", false // the run sits in a branch that did not match
			}
			out.WriteString(view[m[2*g]:m[2*g+1]])
		}
		out.WriteString(p)
	}
	np := out.String()
	if re2, err := regexp.Compile(np); err != nil || !re2.MatchString(view) {
		return "", false
	}
	return np, true
}
