package eval

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// checkIntentLabels warns about an example whose expected intent (the
// enum comparator's field "intent", the value a story routes on with
// emit_intent) is no intent of the story: declared under intents: (the
// story's, a state's, an imported child's), a phase's checkpoint intents,
// or a key of some state's on:. A candidate
// that answers such a label passes the eval while the story, given it,
// has nowhere to go (a misspelt label is measured as correct). Examples
// in failed already (their expect broke the schema) are skipped, and so
// is a story with a wildcard on: "*" or no intent at all.
func checkIntentLabels(d *Dataset, st *story.Story, failed map[int]bool, warnf func(key, format string, a ...any)) {
	if d.Comparator.Kind != "enum" {
		return
	}
	known, ok := storyIntents(st)
	if !ok {
		return
	}
	for i, ex := range d.Examples {
		if failed[i] || enumField(d.Comparator, ex.Expect) != "intent" {
			continue
		}
		label, isText := ex.Expect["intent"].(string)
		if !isText || known[label] {
			continue
		}
		names := slices.Sorted(maps.Keys(known))
		hint := yamlnode.DidYouMean(label, names)
		if hint == "" {
			hint = "the story's intents are " + listNames(names)
		}
		warnf(fmt.Sprintf("examples[%d].expect", i), "example %q expects intent %q, which is no intent of the story (declared under no intents:): a candidate answering it passes here while the story has nowhere to route it; %s", ex.Name, label, hint)
	}
}

// storyIntents are the names a story can route on, its imported
// children's included, and false when any is (a wildcard on: "*") or none
// is known.
func storyIntents(st *story.Story) (map[string]bool, bool) {
	known := map[string]bool{}
	if !addIntents(st, known, map[*story.Story]bool{}) {
		return nil, false
	}
	return known, len(known) > 0
}

// addIntents adds st's intents to known, and its imported children's;
// false on a wildcard on: "*".
func addIntents(st *story.Story, known map[string]bool, seen map[*story.Story]bool) bool {
	if st == nil || seen[st] {
		return true
	}
	seen[st] = true
	for n := range st.Intents {
		known[n] = true
	}
	for n := range st.CheckpointIntents {
		known[n] = true
	}
	for _, s := range st.AllStates() {
		for n := range s.Intents {
			known[n] = true
		}
		for _, o := range s.On {
			if o.Intent == "*" {
				return false
			}
			known[o.Intent] = true
		}
		if s.Import != nil {
			for _, n := range append(slices.Clone(s.Import.ExportIntent), s.Import.ImportIntent...) {
				known[n] = true
			}
			if !addIntents(s.Import.Child, known, seen) {
				return false
			}
		}
	}
	return true
}

// listNames is names joined for a message, at most eight of them.
func listNames(names []string) string {
	const most = 8
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}
