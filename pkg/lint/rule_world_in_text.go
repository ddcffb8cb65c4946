package lint

import (
	"strings"

	"kitsoki/pkg/diag"
)

var ruleWorldInText = &Rule{ID: "world-in-text", Severity: diag.Warning, LintOnly: true,
	Summary: "an import's world_in: value written as a literal (3, \"3\", true) on a child key declared int, float or bool: world_in values are text on both engines, so the child key holds the string \"3\" and a guard reading it as its type fails the turn (string >= int); one whole {{ }} template renders to the type. A literal the type cannot hold at all is set-type's",
	Example: "imports:\n  kid:\n    world_in: {food: 0}   # kid declares food: {type: int}"}

// checkWorldInText warns at a world_in literal the child's typed key
// would hold if it were not text (docs/compat/story.md "world_in: values
// are text"; probed with the existing engine: world_in food: 3 or "3"
// on a type: int key fails the child's `world.food >= 1` with "invalid
// operation: string >= int", food: "{{ 3 }}" passes). A literal that
// does not parse as the type is set-type's.
func checkWorldInText(c *checker) {
	for _, a := range c.st.ImportOrder {
		im := c.st.Imports[a]
		if im == nil || im.Child == nil {
			continue
		}
		for _, kv := range im.WorldIn {
			s, ok := kv.Value.(string)
			v := im.Child.Var(kv.Key)
			if !ok || v == nil || strings.Contains(s, "{{") || strings.Contains(s, "{%") {
				continue
			}
			typed, ok := parsesAs(s, v.Type)
			if !ok {
				continue
			}
			c.rep.Warnf(kv.Pos, ruleWorldInText, "imports.%s.world_in.%s: %s is held as the text %q (world_in values are text on both engines), and the child declares %s type: %s, so a guard or expression of the child that compares or computes with it as a%s %s fails the turn (invalid operation) or compares false; write \"{{ %s }}\", which renders to the type",
				a, kv.Key, s, s, kv.Key, v.Type, kindArticle(v.Kind()), v.Kind(), typed)
		}
	}
}
