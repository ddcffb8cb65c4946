package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// TestSuggest holds the cases of both did-you-means kitsoki had before
// there was one: the story loader's (transpositions count once, the limit
// grows with the name, runes not bytes) and the flow fixtures' (any key
// within two edits, ties to the name that sorts first). Where the two
// disagreed, the story loader's answer is kept: a short word two edits
// from a known one is more often another word than a typo.
func TestSuggest(t *testing.T) {
	storyKeys := []string{"say", "target", "when", "id", "initial", "states"}
	fixtureKeys := []string{"expect_state", "expect_world", "turns", "test_kind", "initial_state"}
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		// The story loader's cases.
		{"sai", storyKeys, "say"},
		{"tagret", storyKeys, "target"}, // a transposition is one edit
		{"whn", storyKeys, "when"},
		{"idd", storyKeys, "id"},
		{"intial", storyKeys, "initial"},
		{"zzz", storyKeys, ""},
		{"sätes", storyKeys, "states"}, // runes: ä is one edit, not two
		// The flow fixtures' cases.
		{"expect_stat", fixtureKeys, "expect_state"},
		{"expect_wrld", fixtureKeys, "expect_world"},
		{"tset_kind", fixtureKeys, "test_kind"},
		{"initial_stte", fixtureKeys, "initial_state"},
		{"expect_sate", fixtureKeys, "expect_state"}, // a tie would go to the first sorted
		// Where they disagreed: the fixture one offered "turns" for "tur"
		// (two edits in three letters); the story one, kept, does not.
		{"tur", fixtureKeys, ""},
		// Five letters take two edits: a state "stail" meant "stale".
		{"stail", []string{"fresh", "stale"}, "stale"},
		{"stxyz", []string{"stale"}, ""},
		{"trns", fixtureKeys, "turns"},
		// Ties go to the name that sorts first, whatever the list's order.
		{"ab", []string{"ac", "aa"}, "aa"},
		// Nothing known, nothing to suggest; very long names are compared
		// only for equality.
		{"x", nil, ""},
		{string(make([]byte, 100)), []string{string(make([]byte, 99))}, ""},
		// The name itself is never the suggestion: a caller whose own
		// lookup missed a known spelling ("x#y", which a flow fixture's
		// parallel-state syntax splits) must not print "did you mean x#y?".
		{"x#y", []string{"x#y", "a::b"}, ""},
		{"states", storyKeys, ""},
		{"sates", []string{"sates", "states"}, "states"},
	} {
		if got := Suggest(c.name, c.known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"abc", "acb", 1}, {"héllo", "hello", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// suggestReference is Suggest as it was written first: every known name's
// full edit distance, the closest other than name itself kept. Suggest
// must answer as it does.
func suggestReference(name string, known []string) string {
	best, bestD := "", -1
	for _, k := range known {
		if k == name {
			continue
		}
		d := editDistance(name, k)
		if bestD < 0 || d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	if limit := suggestLimit(name); bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

func FuzzSuggestAsReference(f *testing.F) {
	f.Add("tagret", "target\nstates\nsay")
	f.Add("sätes", "states\nsätes2")
	f.Add("ab", "ac\naa\nba")
	f.Add("abcdefgh", "abdcefgh\nbacdefhg\nabcdefghij")
	f.Fuzz(func(t *testing.T, name, list string) {
		known := strings.Split(list, "\n")
		if got, want := Suggest(name, known), suggestReference(name, known); got != want {
			t.Errorf("Suggest(%q, %q) = %q, the full distances say %q", name, known, got, want)
		}
	})
}

// TestSuggestManyNames: a story with thousands of unknown names against
// thousands of known ones (a hostile story's target errors) asks Suggest
// once per unknown name; each call allocates nothing per known name.
func TestSuggestManyNames(t *testing.T) {
	known := make([]string, 15000)
	for i := range known {
		known[i] = fmt.Sprintf("p.r%d.a_state_with_a_long_name_%d", i, i)
	}
	n := allocs.PerRun(10, func() { Suggest("p.r77.b_state_with_a_long_name_77", known) })
	if n > 0 {
		t.Errorf("%v allocations per call", n)
	}
	name := "p.r77.a_state_with_a_long_name_7"
	if got, want := Suggest(name, known), suggestReference(name, known); got != want || got == "" {
		t.Errorf("got %q, want %q", got, want)
	}
}

// editDistance, the reference boundedDistance is held to, is the Levenshtein distance with adjacent transpositions
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

// DidYouMean words Suggest's answer as every message puts it, the form
// pkg/lsp's quick fix reads back; nothing when no name is close.
func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("comand", []string{"args", "command"}); got != "did you mean `command`?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("colour", []string{"args", "command"}); got != "" {
		t.Errorf("got %q, want none", got)
	}
}
