package aliasmb

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// The anchors spend Text in their own definition and Text per *mb, as the
// limit tests count on: the file passes yamlnode.MaxAliasText at the
// alias MaxAliasText/Text, not one before or after.
func TestEachAliasRepeatsText(t *testing.T) {
	n := yamlnode.MaxAliasText / Text
	src := "a: " + Anchors() + "\nb:\n" + strings.Repeat("  - *mb\n", n+5)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(src) > 10_000 {
		t.Errorf("the file is %d bytes, want some 9 KB", len(src))
	}
	at := yamlnode.AliasTextFileOver(&doc)
	if at == nil || at.Line != 2+n {
		t.Fatalf("the alias past the limit: %v, want the one on line %d", at, 2+n)
	}
}
