package expr

import (
	"cmp"
	"fmt"
	"slices"
)

// sortKeys puts what keys() returned in byte-wise order of the keys' text.
// expr-lang's keys() lists a map in Go's map order, so upstream's differs
// run to run; ours is sorted, as a pongo2 for loop over a map here
// (docs/compat/template-map-order.md).
func sortKeys(keys []any) {
	slices.SortStableFunc(keys, func(a, b any) int { return cmp.Compare(keyText(a), keyText(b)) })
}

// keyText is a map key as text: a world map's keys are strings already.
func keyText(k any) string {
	if s, ok := k.(string); ok {
		return s
	}
	return fmt.Sprint(k)
}
