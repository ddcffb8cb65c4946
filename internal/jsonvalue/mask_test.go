package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"
)

// MaskEncoded leaves a map whose encoding the mask does not change as it
// is; masks a secret spanning the JSON syntax or in a number through the
// encoding, read again with the number form asked for; and puts masked
// text that is no JSON object under "redacted".
func TestMaskEncoded(t *testing.T) {
	mask := func(s string) string {
		return strings.NewReplacer(`x","y`, "[S]", "4821", "[N]", `1,"b`, "[M]").Replace(s)
	}
	for _, tc := range []struct {
		name  string
		m     map[string]any
		exact bool
		want  string
	}{
		{"untouched", map[string]any{"a": "x", "n": 1.5}, false, `{"a":"x","n":1.5}`},
		{"spanning", map[string]any{"l": []any{"x", "y"}, "n": 1e20}, false, `{"l":["[S]"],"n":100000000000000000000}`},
		{"spanning exact", map[string]any{"l": []any{"x", "y"}, "n": json.Number("1e400")}, true, `{"l":["[S]"],"n":1e400}`},
		{"number", map[string]any{"n": 48213}, false, `{"redacted":"{\"n\":[N]3}"}`},
		{"value and key", map[string]any{"a": 1, "b": 2}, false, `{"redacted":"{\"a\":[M]\":2}"}`},
	} {
		got, err := json.Marshal(MaskEncoded(tc.m, mask, tc.exact))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s (%v), want %s", tc.name, got, err, tc.want)
		}
	}
}
