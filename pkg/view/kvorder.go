package view

import (
	"maps"
	"slices"

	"kitsoki/pkg/story"
)

// kvKeys returns a kv element's keys in upstream's order (PairKeys), then
// any key it does not list, sorted.
func kvKeys(el *story.ViewElement, pairs map[string]any) []string {
	if len(pairs) == 0 {
		return nil
	}
	out := make([]string, 0, len(pairs))
	for _, k := range el.PairKeys {
		if _, ok := pairs[k]; ok {
			out = append(out, k)
		}
	}
	if len(out) == len(pairs) {
		return out
	}
	for _, k := range slices.Sorted(maps.Keys(pairs)) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
