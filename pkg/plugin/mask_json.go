package plugin

import "kitsoki/internal/jsonvalue"

// maskJSON is m with every string masked, map keys included (a secret
// echoed as a key is as much the secret). A secret no one string holds
// whole (one spanning the JSON syntax, `","`, or in a number) would
// survive that: when the masked map, encoded, still spells one, it is the
// encoded map masked and read again, or that text under "redacted" when it
// is not JSON (as an agent's meta is masked, pkg/agent).
func maskJSON(mask func(string) string, m map[string]any) map[string]any {
	if m == nil || mask == nil {
		return m
	}
	return jsonvalue.MaskEncoded(jsonvalue.MapStrings(m, mask, true).(map[string]any), mask, true)
}
