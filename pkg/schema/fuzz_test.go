package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzValidateJSON feeds arbitrary submissions to a typical verdict schema.
// It must never panic; malformed JSON must be reported as Constraint "json"
// and well-formed JSON never as "json"; a nil result means the decoded value
// really satisfies the obvious parts of the schema.
func FuzzValidateJSON(f *testing.F) {
	s, err := CompileBytes("verdict.json", []byte(verdictSchema))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"verdict":"pass","intent":"accept","reason":"looks good","confidence":0.9}`,
		`{"verdict":"maybe"}`, `{"verdict": pass}`, ``, `null`, `[]`, `{} x`, `"\ud800"`,
		`{"confidence":1e400,"verdict":"fail","intent":"quit","reason":"xxxx"}`,
		`{"a":{"b":[1,2,{"c":null}]}}`, "{\"verdict\":\"pass\"\n,", `123456789012345678901234567890`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ve := s.ValidateJSON(data)
		wellFormed := json.Valid(data)
		if !wellFormed {
			if ve == nil || ve.Constraint != "json" {
				t.Fatalf("malformed %q: got %+v", data, ve)
			}
			if !strings.HasPrefix(ve.Message, "line ") && ve.Message != "it is empty: no JSON value" {
				t.Fatalf("no line and column in %q", ve.Message)
			}
			return
		}
		if ve != nil {
			if ve.Constraint == "json" {
				t.Fatalf("well-formed %q reported as malformed: %v", data, ve)
			}
			_ = ve.Error()
			return
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("accepted a non-object %q", data)
		}
		if _, ok := m["verdict"].(string); !ok || len(m) != 4 {
			t.Fatalf("accepted %q", data)
		}
	})
}

// FuzzGrammarSubset checks arbitrary schema bytes: never a panic, the same
// answer twice, every pointer in "$..." form, and non-objects refused.
func FuzzGrammarSubset(f *testing.F) {
	for _, seed := range []string{
		verdictSchema, `{}`, `true`, `[]`, `{"$defs":{}}`, `{"anyOf":{}}`, `{"anyOf":[1,{"not":{}}]}`,
		`{"pattern":"a+"}`, `{"pattern":7}`, `{"items":[{}]}`, `{"properties":{"a":{"items":{"contains":{}}}}}`,
		`{"patternProperties":{"x":{"oneOf":[],"type":"string"}}}`, `{"additionalProperties":{"if":{}}}`, `{"type":`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a := CheckGrammarSubset(data)
		b := CheckGrammarSubset(data)
		if len(a) != len(b) {
			t.Fatalf("nondeterministic: %v vs %v", a, b)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("nondeterministic at %d: %v vs %v", i, a[i], b[i])
			}
			if !strings.HasPrefix(a[i].Pointer, "$") || a[i].Construct == "" || a[i].Detail == "" {
				t.Fatalf("malformed violation %+v", a[i])
			}
		}
		var v any
		if json.Unmarshal(data, &v) == nil {
			if _, isObj := v.(map[string]any); !isObj && (len(a) != 1 || a[0].Construct != "schema") {
				t.Fatalf("non-object %q: got %v", data, a)
			}
		}
	})
}

// FuzzCompileBytes: arbitrary schema bytes never panic the compiler and
// every failure is a *CompileError naming the schema.
func FuzzCompileBytes(f *testing.F) {
	for _, seed := range []string{verdictSchema, `{"$ref":"../x.json"}`, `{"$ref":"#/nope"}`, `{"type":5}`, `{"pattern":"("}`, `true`, `{`,
		// the same $ref twice per level (2^40 visits without the cost bound)
		string(doubling(40, `{"type":"string"}`)),
		`{"$defs":{"n":{"anyOf":[{"$ref":"#/$defs/o"},{"$ref":"#/$defs/o"}]},"o":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := CompileBytes("fuzz.json", data)
		if err != nil {
			ce, ok := errors.AsType[*CompileError](err)
			if !ok || ce.File != "fuzz.json" {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		_ = s.ValidateJSON([]byte(`{"a":[1,"x",null]}`))
	})
}
