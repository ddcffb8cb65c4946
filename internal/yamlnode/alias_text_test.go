package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// An alias spends the text it repeats: a 100 KB name aliased as a key (or
// a value, or inside an aliased mapping or list) on 2,000 entries, 190 KB
// of file, was 2,000 nodes, under the budget, and became 200 MB of graph,
// coverage and -v output as the name was printed once per entry. Now the
// walk stops with the budget's error at the entry past it.
func TestAliasesSpendTheTextTheyRepeat(t *testing.T) {
	big := strings.Repeat("g", 100_000)
	for name, c := range map[string]struct{ head, entry string }{
		"key":           {"? &big " + big + "\n: {}\n", "s%d: {*big : [x]}\n"},
		"value":         {"top: &big " + big + "\n", "s%d: {description: *big}\n"},
		"list item":     {"top: &big " + big + "\n", "s%d: [*big]\n"},
		"aliased map":   {"top: &m {description: " + big + "}\n", "s%d: *m\n"},
		"in alias list": {"top: &l [{a: [" + big + "]}]\n", "s%d: {x: *l}\n"},
	} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(c.head)
			for i := range 2000 {
				fmt.Fprintf(&b, c.entry, i)
			}
			var ds []diag.Diagnostic
			root, w := parse(t, b.String(), &ds)
			w.Raw(root)
			walkAll(w, root)
			if !strings.Contains(lines(ds), "the file expands to more than") {
				t.Fatalf("%d bytes repeating %d MB of text read without the budget's error:\n%s", b.Len(), 2000*len(big)>>20, lines(ds))
			}
		})
	}
}

// walkAll reads every mapping and list of n through the walker, as a
// story's parse does.
func walkAll(w *Walker, n *yaml.Node) {
	switch d := Deref(n); {
	case d == nil:
	case d.Kind == yaml.MappingNode:
		w.Mapping(n, "x", nil, func(_ string, _, v *yaml.Node) { walkAll(w, v) })
	case d.Kind == yaml.SequenceNode:
		w.Seq(n, "x", func(_ int, it *yaml.Node) { walkAll(w, it) })
	}
}

// Aliases of the sizes stories use (a prompt of a few KB named by a few
// states) stay far inside the budget.
func TestModestAliasesKeepTheBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("prompt: &p " + strings.Repeat("p", 4096) + "\n")
	for i := range 200 {
		fmt.Fprintf(&b, "s%d: {prompt: *p, again: [*p]}\n", i)
	}
	var ds []diag.Diagnostic
	root, w := parse(t, b.String(), &ds)
	walkAll(w, root)
	w.Raw(root)
	if len(ds) != 0 {
		t.Fatalf("findings:\n%s", lines(ds))
	}
	if spent := w.Limit - w.Budget; spent > 200_000 {
		t.Errorf("spent %d nodes, want some 2 x 200 x 4096/32 = 51,200 and the nodes", spent)
	}
}

// Text nested deeper than a Walker reads (maxDepth) is counted too, and an
// alias below that depth is found: a reader that takes deeper values (an
// eval dataset's args) kept both out of the count (redteam22: a 1.5 MB
// dataset naming a 1 MB string 205 lists deep 2,000 times ran eval show
// past 122 s and 1.9 GB). Past maxTextDepth the text counts as over.
func TestAliasTextCountsDeepText(t *testing.T) {
	big := strings.Repeat("v", 1<<20)
	deep := strings.Repeat("[", maxDepth+5) + big + strings.Repeat("]", maxDepth+5)
	for name, src := range map[string]string{
		"deep anchor": "a: &b " + deep + "\nk: [" + strings.Repeat("*b, ", 70) + "x]\n",
		"deep alias":  "a: &b " + big + "\nk: " + strings.Repeat("[", maxDepth+5) + strings.Repeat("*b, ", 70) + "x" + strings.Repeat("]", maxDepth+5) + "\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if AliasTextFileOver(&doc) == nil {
			t.Errorf("%s: 70 MiB of aliased text within the limit", name)
		}
	}
	var ts TextSizes
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for cur, i := n, 0; i <= maxTextDepth; i++ {
		next := &yaml.Node{Kind: yaml.SequenceNode}
		cur.Content = []*yaml.Node{next}
		cur = next
	}
	if got := ts.Of(n); got != maxText {
		t.Errorf("text past maxTextDepth counts %d, want maxText", got)
	}
}
