package mcpserve

import (
	"strings"
	"testing"
)

func TestOutputSchemaAcceptance(t *testing.T) {
	cases := []struct {
		schema string
		ok     bool
		why    string
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, true, ""},
		{`{"type":"object"}`, true, ""},
		{`{"$ref":"#/$defs/x","$defs":{"x":{"type":"object"}}}`, false, "type unset"},
		{`{"type":["object","null"]}`, false, `type ["object","null"]`},
		{`{"type":"string"}`, false, `type "string"`},
		{`{"type":"object","properties":{"a":true}}`, false, `property "a" is not an object schema`},
		{`true`, false, "not a JSON object"},
	}
	for _, tc := range cases {
		ok, why := outputSchema([]byte(tc.schema))
		if ok != tc.ok || !strings.Contains(why, tc.why) {
			t.Errorf("%s: ok=%v why=%q", tc.schema, ok, why)
		}
	}
}
