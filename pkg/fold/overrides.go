package fold

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// structural are the load rules whose errors make an override unusable;
// the reference checks of a lone override (undeclared intents, world
// keys, ...) are the folded story's business, not the fold's.
var structural = map[string]bool{"yaml-syntax": true, "type": true, "duplicate-key": true, "unknown-key": true, "view": true, "internal": true}

// applyOverrides replaces whole child states and intents by the import's
// overrides (story-format §1.2). They are applied to the folded child
// before its paths are re-based and it is folded, as upstream does, so an
// override state is child-scope: its world references, intents and
// targets are rewritten like the child's own, and its relative paths
// resolve against the child's directory.
func (fs *folder) applyOverrides(n, k *node) {
	ov := k.im.Overrides
	if ov == nil {
		return
	}
	o := origin{dir: k.orig.Dir, file: k.orig.File, alias: k.chain, story: k.orig}
	for _, name := range orderedKeys(nil, ov.States) {
		idx := -1
		for i, s := range k.st.States {
			if s.Name == name {
				idx = i
			}
		}
		if idx < 0 {
			fs.errf(k.chain, ov.Pos, "overrides: states.%s: child %s does not declare a top-level state named %q", name, k.orig.File, name)
			continue
		}
		label := fmt.Sprintf("%s (imports.%s.overrides.states.%s)", n.orig.File, k.im.Alias, name)
		parsed := fs.parseOverride(k.chain, ov.Pos, label, map[string]any{"root": name, "states": map[string]any{name: ov.States[name]}})
		if parsed == nil || len(parsed.States) == 0 {
			continue
		}
		s := copyState(parsed.States[0], nil)
		fs.mark(s, o)
		k.st.States[idx] = s
	}
	for _, name := range orderedKeys(nil, ov.Intents) {
		if k.st.Intents[name] == nil {
			fs.errf(k.chain, ov.Pos, "overrides: intents.%s: child %s does not declare an intent named %q", name, k.orig.File, name)
			continue
		}
		label := fmt.Sprintf("%s (imports.%s.overrides.intents.%s)", n.orig.File, k.im.Alias, name)
		parsed := fs.parseOverride(k.chain, ov.Pos, label, map[string]any{
			"root": "fold_override", "states": map[string]any{"fold_override": map[string]any{}},
			"intents": map[string]any{name: ov.Intents[name]}})
		if parsed == nil || parsed.Intents[name] == nil {
			continue
		}
		in := copyIntent(parsed.Intents[name])
		in.Name = name
		k.st.Intents[name] = in
	}
}

// parseOverride parses a raw override through pkg/story's own parser (as
// a one-state in-memory story) so it gets exactly the model of a state or
// intent written in a file.
func (fs *folder) parseOverride(chain string, p story.Pos, label string, doc map[string]any) *story.Story {
	doc["app"] = map[string]any{"id": "fold-override"}
	data, ok := encodeOverride(doc) // yaml.Marshal's bytes, without its reflection
	if !ok {
		var err error
		if data, err = yaml.Marshal(doc); err != nil {
			fs.errf(chain, p, "%s: cannot encode the override: %v", label, err)
			return nil
		}
	}
	st, ds := story.LoadBytes(label, data, story.Options{AllowUnsetEnv: true})
	var bad []string
	for _, d := range ds {
		// Reference checks of a lone override (a choice item naming a child
		// intent the snippet does not declare) are not structural.
		if d.Severity == diag.Error && structural[d.Rule] && !strings.Contains(d.Message, "not declared") && !strings.Contains(d.Message, "not a declared slot") {
			bad = append(bad, d.Message)
		}
	}
	if len(bad) > 0 || st == nil {
		fs.errf(chain, p, "%s: %s", label, strings.Join(bad, "; "))
		return nil
	}
	return st
}
