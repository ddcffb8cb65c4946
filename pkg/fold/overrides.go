package fold

import (
	"fmt"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// structural are the load rules whose errors make an override unusable;
// its references are checked in the child's scope after the fold.
var structural = map[string]bool{"yaml-syntax": true, "type": true, "duplicate-key": true, "unknown-key": true, "view": true, "internal": true}

// applyOverrides replaces child states and intents by the import's
// overrides before the child is folded, as upstream, so they are child-scope.
func (fs *folder) applyOverrides(n, k *node) {
	ov := k.im.Overrides
	if ov == nil {
		return
	}
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
		fs.mark(k, s)
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
		if fs.preOverride[k] == nil {
			fs.preOverride[k] = map[string]*story.Intent{}
		}
		if _, ok := fs.preOverride[k][name]; !ok {
			fs.preOverride[k][name] = k.st.Intents[name]
		}
		k.st.Intents[name] = in
	}
}

// overrideUsable reports whether an override parsed with ds can replace
// the child's own; a structural error is reported at p under label.
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
