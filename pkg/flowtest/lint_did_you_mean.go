package flowtest

import (
	"maps"
	"slices"

	"kitsoki/internal/yamlnode"
)

// intentHint is " (did you mean `x`?)" for the intent of the story closest
// to name, an intent no state of it declares or takes, or "".
func (ix *storyIndex) intentHint(name string) string {
	return didYouMean(name, slices.Sorted(maps.Keys(ix.intents)))
}

// worldHint is the note on a world key the story does not declare, with
// the declared key closest to it ("tickt": ticket), or "" for a declared
// key or one nothing is close to.
func (ix *storyIndex) worldHint(key string) string {
	if _, ok := ix.world[key]; ok {
		return ""
	}
	if s := yamlnode.DidYouMean(key, slices.Sorted(maps.Keys(ix.world))); s != "" {
		return "; the story declares no world key \"" + key + "\": " + s
	}
	return ""
}
