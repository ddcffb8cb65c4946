package host

import (
	"fmt"

	"kitsoki/internal/yamlnode"
)

// scalarText is a cassette's scalar body or header value as the text
// upstream's decoder makes of it (conformance star-http-scalar-text);
// ok is false for a mapping or a list.
func scalarText(v any) (string, bool) { return yamlnode.PrintedText(v) }

// headerTexts reads a response's headers: each value a scalar, as text.
func headerTexts(raw map[string]any) (map[string]string, error) {
	if raw == nil {
		return nil, nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		text, ok := scalarText(v)
		if !ok {
			return nil, fmt.Errorf("%q is a %T; a header's value is one text: write it as a string", k, v)
		}
		out[k] = text
	}
	return out, nil
}
