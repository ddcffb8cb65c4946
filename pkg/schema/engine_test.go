package schema

import (
	"errors"
	"strings"
	"testing"
)

// Behaviour where the engine deliberately says more than the library did
// (docs/compat/schema.md); the differential tests skip these texts.

func TestPropertyNamesLeafNamesTheProperty(t *testing.T) {
	s, err := CompileBytes("p.json", []byte(`{"properties":{"o":{"propertyNames":{"maxLength":3}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ve := s.ValidateJSON([]byte(`{"o":{"abcde":1,"ok":2}}`))
	if ve == nil || ve.Pointer != "/o" || ve.Constraint != "propertyNames" || len(ve.More) != 0 ||
		ve.Message != "invalid propertyName 'abcde' (maxLength: got 5, want 3)" {
		t.Fatalf("got %+v", ve)
	}
}

func TestAdditionalPropertiesSorted(t *testing.T) {
	s, err := CompileBytes("a.json", []byte(`{"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		ve := s.ValidateJSON([]byte(`{"z":1,"b":2,"m":3}`))
		if ve == nil || ve.Message != "additional properties 'b', 'm', 'z' not allowed" {
			t.Fatalf("got %+v", ve)
		}
	}
}

func TestReferenceCycleNamesThePlace(t *testing.T) {
	s, err := CompileBytes("c.json", []byte(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`{}`)); ve != nil {
		t.Fatalf("the cycle is only reached through x: %v", ve)
	}
	ve := s.ValidateJSON([]byte(`{"x":1}`))
	if ve == nil || ve.Pointer != "/x" || ve.Constraint != "$ref" || !strings.Contains(ve.Message, "c.json#/$defs/") || strings.Contains(ve.Message, "kitsoki-mem") {
		t.Fatalf("got %+v", ve)
	}
}

func TestUnknownSchemaDraftRefused(t *testing.T) {
	_, err := CompileBytes("u.json", []byte(`{"$schema":"https://example.com/my-meta"}`))
	ce := mustCompileErr(t, err)
	if ce.File != "u.json" || !strings.Contains(ce.Message, "not one of the standard drafts") || !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("got %#v", ce)
	}
	dir := story(t, map[string]string{"schemas/a.json": `{"$schema":"meta.json"}`, "schemas/meta.json": `{}`})
	_, err = NewCompiler(dir).Compile("schemas/a.json")
	ce = mustCompileErr(t, err)
	if ce.File != "schemas/a.json" || !strings.Contains(ce.Message, "custom metaschemas are never loaded") || errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("got %#v", ce)
	}
}

func TestMetaschemaRefs(t *testing.T) {
	s, err := CompileBytes("m.json", []byte(`{"properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`{"s":{"type":"string","minLength":1}}`)); ve != nil {
		t.Fatal(ve)
	}
	ve := s.ValidateJSON([]byte(`{"s":{"minLength":-1}}`))
	if ve == nil || ve.Pointer != "/s" || !strings.Contains(ve.Message, "/minLength") {
		t.Fatalf("got %+v", ve)
	}
	_, err = CompileBytes("m.json", []byte(`{"$ref":"http://json-schema.org/draft-07/schema#/definitions/nonNegativeInteger"}`))
	ce := mustCompileErr(t, err)
	if ce.Pointer != "/$ref" || !strings.Contains(ce.Message, "built-in metaschema") {
		t.Fatalf("got %#v", ce)
	}
}

func TestSelfCheckNamesPointer(t *testing.T) {
	for _, tc := range []struct{ schema, pointer, part string }{
		{`{"type":5}`, "/type", `"type" must be a type name`},
		{`{"properties":{"a":{"required":"x"}}}`, "/properties/a/required", `"required" must be an array of strings`},
		{`{"items":{"minLength":-1}}`, "/items/minLength", "non-negative integer"},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","items":[true]}`, "/items/0", "draft-04 has no boolean schemas"},
		{`{"dependentRequired":{"a":["b","b"]}}`, "/dependentRequired/a", `"dependentRequired" lists 'b' twice`},
		{`{"patternProperties":{"(":{}}}`, "/patternProperties/(", "invalid regular expression"},
		{`{"pattern":"(?=x)"}`, "/pattern", "RE2"},
	} {
		_, err := CompileBytes("s.json", []byte(tc.schema))
		ce := mustCompileErr(t, err)
		if ce.File != "s.json" || ce.Pointer != tc.pointer || !strings.Contains(ce.Message, tc.part) || !strings.HasPrefix(ce.Message, "not a valid JSON Schema: ") {
			t.Errorf("%s: got %#v", tc.schema, ce)
		}
	}
}

// TestFirstBadPropertyRefIsStable: with several broken refs under
// "properties", the same one (the first by name) is reported every time,
// whatever the map order.
func TestFirstBadPropertyRefIsStable(t *testing.T) {
	raw := []byte(`{"properties":{"h":{"$ref":"#/no/h"},"c":{"$ref":"#/no/c"},"f":{"$ref":"#/no/f"},"a":{"$ref":"#/no/a"},
		"g":{"$ref":"#/no/g"},"b":{"$ref":"#/no/b"},"e":{"$ref":"#/no/e"},"d":{"$ref":"#/no/d"}}}`)
	for range 20 {
		_, err := CompileBytes("p.json", raw)
		ce, ok := asCompileError(err)
		if !ok || ce.Pointer != "/properties/a/$ref" {
			t.Fatalf("got %v", err)
		}
	}
}
