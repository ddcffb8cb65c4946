package eval

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// The walk drops each example's nodes once it is read, so a dataset of
// many examples never holds its node tree and its decoded examples at
// once (a 15 MB dataset of 80,000 examples: eval list peaked at 862 MB
// RSS, 662 MB after). An example that is an anchor is kept, and a later
// alias of it, or of a node under an example, reads what the anchor holds.
func TestDatasetWalkReleasesExamples(t *testing.T) {
	var b strings.Builder
	b.WriteString("kind: agent_eval\napp: ../app.yaml\ncall: c\nexamples:\n")
	b.WriteString("  - &first\n    name: first\n    args: &shared {pr: \"1\", n: 2}\n    expect: {verdict: pass}\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  - name: ex-%d\n    args: {pr: %q}\n    expect: {verdict: pass}\n", i, fmt.Sprint(i))
	}
	b.WriteString("  - name: last\n    args: *shared\n    expect: {verdict: pass}\n  - *first\n")
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	p := &dparser{d: &Dataset{pos: map[string]story.Pos{}}}
	p.Walker = yamlnode.NewWalker("d.yaml", b.Len(), &p.diags, datasetRules)
	root := doc.Content[0]
	p.top(root)
	if len(p.diags) > 0 || len(p.d.Examples) != 53 {
		t.Fatalf("examples %d, findings %v", len(p.d.Examples), p.diags)
	}
	items := root.Content[len(root.Content)-1].Content
	for i, it := range items {
		if kept := len(it.Content) > 0; it.Kind != yaml.AliasNode && kept != (i == 0) {
			t.Errorf("example %d: nodes kept %v, want %v (only the anchored one)", i, kept, i == 0)
		}
	}
	if first, last := p.d.Examples[0].Args, p.d.Examples[51].Args; !reflect.DeepEqual(first, last) || first["pr"] != "1" {
		t.Errorf("the alias read %v, its anchor %v", last, first)
	}
	if again := p.d.Examples[52]; again.Name != "first" || !reflect.DeepEqual(again.Args, p.d.Examples[0].Args) {
		t.Errorf("an alias of the first example read %+v", again)
	}
}
