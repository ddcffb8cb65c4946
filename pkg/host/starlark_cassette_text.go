package host

import (
	"fmt"
	"maps"
	"slices"

	"kitsoki/internal/yamlnode"
)

// headerTexts reads a response's headers: each value a scalar, as the
// text upstream's decoder makes of it (yamlnode.PrintedText; conformance
// star-http-scalar-text). The first header, by name, that holds a list or
// a mapping is refused.
func headerTexts(raw map[string]any) (map[string]string, error) {
	if raw == nil {
		return nil, nil
	}
	out := make(map[string]string, len(raw))
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		text, ok := yamlnode.PrintedText(raw[k])
		if !ok {
			what := "mapping"
			if _, list := raw[k].([]any); list {
				what = "list"
			}
			return nil, fmt.Errorf("header %q holds a %s; a header's value is one text: write it as a string", k, what)
		}
		out[k] = text
	}
	return out, nil
}
