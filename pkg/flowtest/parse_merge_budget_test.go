package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// mergeBomb is a fixture file whose merge keys double at every level: two
// anchors each merging both of the level below, levels deep, merged whole
// where into names (initial_world, a turn's world_override, the document).
// The bottom mappings are empty: with keys, every level's two mappings
// would share them, and each shared key is a finding of its own (hundreds
// of thousands past the limit) that this test does not pin. The walk is
// what the limit bounds, and a merge of an empty mapping is charged too.
func mergeBomb(levels int, into string) string {
	var b strings.Builder
	b.WriteString("test_kind: flow\ninitial_state: a\nx-defs:\n  d0: &d0 {}\n  e0: &e0 {}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "  d%d: &d%d {<<: [*d%d, *e%d]}\n  e%d: &e%d {<<: [*e%d, *d%d]}\n", i, i, i-1, i-1, i, i, i-1, i-1)
	}
	top := fmt.Sprintf("{<<: [*d%d, *e%d]}", levels-1, levels-1)
	switch into {
	case "initial_world":
		b.WriteString("initial_world: " + top + "\nturns: []\n")
	case "world_override":
		b.WriteString("turns:\n  - world_override: " + top + "\n")
	}
	return b.String()
}

// Merge keys that copy more keys than a fixture file may are an error at
// the merge, not an exponential expansion: 17 doubling levels walk 262,142
// merged mappings (before the limit they were expanded, without a finding;
// 60 levels kept validate busy past a minute and 2.7 GB).
func TestMergeKeysCopyAtMostTheFileLimit(t *testing.T) {
	for _, into := range []string{"initial_world", "world_override"} {
		t.Run(into, func(t *testing.T) {
			_, ds := parse("flows/bomb.yaml", []byte(mergeBomb(17, into)))
			found := false
			for _, d := range ds {
				if d.Severity == diag.Error && strings.Contains(d.Message, "merge keys (<<:) copy more than 100000 keys") {
					found = true
				}
			}
			if !found {
				t.Fatalf("no merge-limit error; got %d findings: %v", len(ds), ds[:min(len(ds), 3)])
			}
		})
	}
	// A file of many documents shares the one limit.
	doc := mergeBomb(12, "initial_world") // 8,190 mappings walked, under the limit alone
	_, ds := parse("flows/many.yaml", []byte(strings.Repeat(doc+"\n---\n", 40)))
	n := 0
	for _, d := range ds {
		if strings.Contains(d.Message, "merge keys (<<:) copy more than") {
			n++
		}
	}
	if n == 0 {
		t.Fatal("40 documents walking 8,190 merged mappings each passed the file's limit without a finding")
	}
}

// A key two mappings of a merged list share is reported once per place,
// however often aliases merge those mappings: 12 doubling levels over
// {p: 1} and {q: 2} repeat p and q thousands of times (each was a finding
// of its own, hundreds of thousands at 17 levels).
func TestMergedListRepeatReportedOncePerPlace(t *testing.T) {
	doc := strings.Replace(mergeBomb(12, "initial_world"), "&d0 {}\n  e0: &e0 {}", "&d0 {p: 1}\n  e0: &e0 {q: 2}", 1)
	_, ds := parse("flows/bomb.yaml", []byte(doc))
	places := map[string]int{}
	for _, d := range ds {
		if strings.Contains(d.Message, "two mappings of the merged list") {
			places[fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Message)]++
		}
	}
	if len(places) == 0 {
		t.Fatal("no finding for keys the merged mappings share")
	}
	for at, n := range places {
		if n > 1 {
			t.Errorf("reported %d times: %s", n, at)
		}
	}
}
