package jsonvalue

import "encoding/json"

// MaskEncoded is m when mask leaves m's JSON encoding as it is; else that
// encoding masked and read again (numbers as float64, or as [OneExact]
// reads them with exact), or the masked text under "redacted" when it is
// not a JSON object. It catches what masking m string by string misses:
// a secret no one string holds whole (spanning the JSON syntax, `","`,
// or inside a number).
func MaskEncoded(m map[string]any, mask func(string) string, exact bool) map[string]any {
	enc, err := json.Marshal(m)
	if err != nil {
		return m
	}
	masked := mask(string(enc))
	if masked == string(enc) {
		return m
	}
	var v map[string]any
	if one([]byte(masked), &v, exact) == nil && v != nil {
		return v
	}
	return map[string]any{"redacted": masked}
}
