package schema

import (
	"reflect"
	"testing"
)

func TestGrammarIgnoredKeywords(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   []string
	}{
		{"flat verdict bounds a number", verdictSchema, []string{
			`$.properties.confidence.minimum: "minimum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`,
			`$.properties.confidence.maximum: "maximum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`}},
		{"empty schema", `{}`, nil},
		{"integer bounds are constrained", `{"type":"integer","minimum":1,"maximum":5,"exclusiveMinimum":0,"exclusiveMaximum":6}`, nil},
		{"constrained format", `{"type":"string","format":"date-time"}`, nil},
		{"object without properties", `{"type":"object"}`, nil},
		{"additionalProperties stated", `{"type":"object","properties":{},"additionalProperties":true}`, nil},
		{"reproducer: minimum on a number", `{"type":"object","properties":{"n":{"type":"number","minimum":1}},"additionalProperties":false}`,
			[]string{`$.properties.n.minimum: "minimum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`}},
		{"every bound on a number, type list", `{"type":["number","null"],"exclusiveMaximum":1,"maximum":2,"exclusiveMinimum":0,"minimum":1}`, []string{
			`$.minimum: "minimum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`,
			`$.exclusiveMinimum: "exclusiveMinimum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`,
			`$.maximum: "maximum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`,
			`$.exclusiveMaximum: "exclusiveMaximum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`}},
		{"omitted additionalProperties", `{"type":"object","properties":{"a":{"type":"string"}}}`, nil},
		{"uri and email formats", `{"properties":{"u":{"type":"string","format":"uri"},"e":{"type":"string","format":"email"}},"additionalProperties":false}`, []string{
			`$.properties.e.format: "format": "email" is not constrained by the llama.cpp grammar: the model may answer any string`,
			`$.properties.u.format: "format": "uri" is not constrained by the llama.cpp grammar: the model may answer any string`}},
		{"nested in items, anyOf and additionalProperties", `{"anyOf":[{"type":"number","maximum":3}],"items":{"properties":{}},"additionalProperties":{"type":"string","format":"uri"}}`, []string{
			`$.anyOf[0].maximum: "maximum" on a "number" is not constrained by the llama.cpp grammar (it bounds only "integer"): the model may answer any number`,
			`$.additionalProperties.format: "format": "uri" is not constrained by the llama.cpp grammar: the model may answer any string`}},
		{"unparsable", `{`, nil},
		{"not an object", `[]`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, g := range CheckGrammarIgnored([]byte(tc.schema)) {
				got = append(got, g.String())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestGrammarIgnoredAtNamesAKey: every finding's At is a key of the file,
// so lint can position it there.
func TestGrammarIgnoredAtNamesAKey(t *testing.T) {
	raw := []byte("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"n\": {\"type\": \"number\", \"minimum\": 1},\n    \"u\": {\"type\": \"string\", \"format\": \"uri\"}\n  }\n}\n")
	offs := KeyOffsets(raw)
	for _, g := range CheckGrammarIgnored(raw) {
		off, ok := offs[g.At]
		if !ok {
			t.Fatalf("%s: At %q is not a key of the file", g, g.At)
		}
		want := `"` + g.At[len(g.At)-len(lastName(g.At)):] + `"`
		if got := string(raw[off : off+len(want)]); got != want {
			t.Errorf("%s: offset %d holds %q, want %q", g.At, off, got, want)
		}
	}
}

func lastName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' {
			return p[i+1:]
		}
	}
	return p
}

func TestKeyOffsets(t *testing.T) {
	raw := []byte(`{"a" : {"b":[{"c":1}, {"c" :2}]} ,` + "\n\t" + `"a\u0062":0, "a":{"d":1}}`)
	got := KeyOffsets(raw)
	want := map[string]int{"$.a": 49, "$.a.b": 8, "$.a.b[0].c": 14, "$.a.b[1].c": 23, "$.ab": 36, "$.a.d": 54}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if KeyOffsets([]byte(`{"a":`)) != nil {
		t.Error("unparsable input: want nil")
	}
}
