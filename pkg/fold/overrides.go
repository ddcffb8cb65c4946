package fold

import (
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// structural are the load rules whose errors make an override unusable.
// The references an override makes (intents, world keys, targets) are
// checked in the child's scope once it is folded, not here.
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
	for _, name := range ov.StateNames() {
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
		parsed, ds := ov.ParseStateIn(name, fs.overrides)
		if !fs.overrideUsable(k.chain, ov.Pos, fmt.Sprintf("%s (imports.%s.overrides.states.%s)", n.orig.File, k.im.Alias, name), ds) || parsed == nil {
			continue
		}
		s := copyState(parsed, nil)
		fs.mark(o, s)
		k.st.States[idx] = s
	}
	for _, name := range ov.IntentNames() {
		if k.st.Intents[name] == nil {
			fs.errf(k.chain, ov.Pos, "overrides: intents.%s: child %s does not declare an intent named %q", name, k.orig.File, name)
			continue
		}
		parsed, ds := ov.ParseIntentIn(name, fs.overrides)
		if !fs.overrideUsable(k.chain, ov.Pos, fmt.Sprintf("%s (imports.%s.overrides.intents.%s)", n.orig.File, k.im.Alias, name), ds) || parsed == nil {
			continue
		}
		in := copyIntent(parsed)
		in.Name = name
		k.st.Intents[name] = in
	}
}

// overrideUsable reports whether an override parsed with the diagnostics
// ds can replace the child's own: an error of a structural rule makes it
// unusable, and is reported at p (the import's overrides: key) under
// label, which names the override.
func (fs *folder) overrideUsable(chain string, p story.Pos, label string, ds []diag.Diagnostic) bool {
	var bad []string
	for _, d := range ds {
		if d.Severity == diag.Error && structural[d.Rule] {
			bad = append(bad, d.Message)
		}
	}
	if len(bad) > 0 {
		fs.errf(chain, p, "%s: %s", label, strings.Join(bad, "; "))
		return false
	}
	return true
}
