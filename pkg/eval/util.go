package eval

import (
	"encoding/json"
	"io"
	"sort"
)

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func newCompactEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
