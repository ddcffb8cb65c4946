package host

import (
	"fmt"
	"strconv"
)

// scalarText is a cassette's scalar body or header value as the text
// upstream's decoder makes of it (conformance star-http-scalar-text): a
// string as written, null empty, a bool true/false, a number as Go prints
// it (1.0 is "1", 1000000.0 "1e+06", .inf "+Inf"); ok is false for a
// mapping or a list.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case int, int64, uint64, float64:
		return fmt.Sprint(x), true
	}
	return "", false
}

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
