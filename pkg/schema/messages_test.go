package schema

import (
	"errors"
	"strings"
	"testing"
)

// Messages: the library's words, made stable (no Go map order in them),
// and placed (file, pointer) with the fix where kitsoki adds one.

func TestPropertyNamesLeafNamesTheProperty(t *testing.T) {
	s, err := CompileBytes("p.json", []byte(`{"properties":{"o":{"propertyNames":{"maxLength":3}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		ve := s.ValidateJSON([]byte(`{"o":{"abcde":1,"ok":2,"abcd":3}}`))
		if ve == nil || ve.Pointer != "/o" || ve.Constraint != "propertyNames" || len(ve.More) != 1 ||
			ve.Message != "invalid propertyName 'abcd' (maxLength: got 4, want 3)" ||
			ve.More[0].Message != "invalid propertyName 'abcde' (maxLength: got 5, want 3)" {
			t.Fatalf("got %+v", ve)
		}
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

// TestLeafOrderIsStable: leaves come by place in the instance, then in the
// order the library checks keywords, then by branch; never in map order.
func TestLeafOrderIsStable(t *testing.T) {
	s, err := CompileBytes("o.json", []byte(`{"type":"object","required":["a","b"],"additionalProperties":false,
		"properties":{"c":{"maximum":1},"e":{"oneOf":[{"type":"string"},{"type":"integer"}]}},
		"patternProperties":{"^c":{"multipleOf":2},"c$":{"minimum":10}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "required: missing properties 'a', 'b'; additionalProperties: additional properties 'd' not allowed; " +
		"/c: maximum: got 5, want 1; /c: multipleOf: got 5, want 2; /c: minimum: got 5, want 10; " +
		"/e: type: got number, want string; /e: type: got number, want integer"
	for range 20 {
		if ve := s.ValidateJSON([]byte(`{"c":5,"d":0,"e":1.5}`)); ve == nil || ve.Error() != want {
			t.Fatalf("got  %v\nwant %s", ve, want)
		}
	}
}

// TestLibraryText: the existing engine's words for the same leaves, in the
// same order: "<pointer>: <message>", the keyword only where the library's
// message has it.
func TestLibraryText(t *testing.T) {
	s, err := CompileBytes("o.json", []byte(`{"type":"object","required":["a","b"],"additionalProperties":false,
		"properties":{"c":{"maximum":1},"e":{"oneOf":[{"type":"string"},{"type":"integer"}]}},
		"patternProperties":{"^c":{"multipleOf":2},"c$":{"minimum":10}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "missing properties 'a', 'b'; additional properties 'd' not allowed; " +
		"/c: maximum: got 5, want 1; /c: multipleOf: got 5, want 2; /c: minimum: got 5, want 10; " +
		"/e: got number, want string; /e: got number, want integer"
	if ve := s.ValidateJSON([]byte(`{"c":5,"d":0,"e":1.5}`)); ve == nil || ve.LibraryText() != want {
		t.Fatalf("got  %v\nwant %s", ve.LibraryText(), want)
	}
	if ve := s.Validate(nil); ve == nil || ve.LibraryText() != "got null, want object" {
		t.Fatalf("null: %v", ve)
	}
	if ve := s.ValidateJSON([]byte(`{`)); ve == nil || ve.LibraryText() != ve.Message {
		t.Fatalf("a leaf of kitsoki's own (json) has no keyword to drop: %v", ve)
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
	if ve == nil || ve.Pointer != "/x" || ve.Constraint != "$ref" || !strings.Contains(ve.Message, `"c.json#/$defs/`) || strings.Contains(ve.Message, "kitsoki-mem") {
		t.Fatalf("got %+v", ve)
	}
	dir := story(t, map[string]string{"schemas/c.json": `{"$ref":"#"}`})
	_, err = NewCompiler(dir).Compile("schemas/c.json") // refused on every value: a compile error (cycle.go)
	if ce := mustCompileErr(t, err); ce.File != "schemas/c.json" || !strings.Contains(ce.Message, `"schemas/c.json" -> "schemas/c.json"`) || strings.Contains(ce.Message, dir) {
		t.Fatalf("got %#v", ce)
	}
}

func TestUnknownSchemaDraftRefused(t *testing.T) {
	_, err := CompileBytes("u.json", []byte(`{"$schema":"https://example.com/my-meta"}`))
	ce := mustCompileErr(t, err)
	if ce.File != "u.json" || !strings.Contains(ce.Message, "not one of the standard drafts") || !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("got %#v", ce)
	}
	dir := story(t, map[string]string{
		"schemas/a.json":    `{"$schema":"meta.json"}`,
		"schemas/meta.json": `{}`,
		"schemas/sub.json":  `{"$defs":{"x":{"$id":"x.json","$schema":"https://example.com/m"}}}`,
	})
	_, err = NewCompiler(dir).Compile("schemas/a.json")
	ce = mustCompileErr(t, err)
	if ce.File != "schemas/a.json" || !strings.Contains(ce.Message, "custom metaschemas are never loaded") || errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("got %#v", ce)
	}
	_, err = NewCompiler(dir).Compile("schemas/sub.json")
	if ce = mustCompileErr(t, err); ce.Pointer != "/$defs/x/$schema" {
		t.Fatalf("got %#v", ce)
	}
}

// TestMetaschemaRefs: a $ref to a standard metaschema, whole or inside,
// resolves from the library's own copies.
func TestMetaschemaRefs(t *testing.T) {
	s, err := CompileBytes("m.json", []byte(`{"properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"},
		"n":{"$ref":"http://json-schema.org/draft-07/schema#/definitions/nonNegativeInteger"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`{"s":{"type":"string","minLength":1},"n":3}`)); ve != nil {
		t.Fatal(ve)
	}
	ve := s.ValidateJSON([]byte(`{"s":{"minLength":-1},"n":-1}`))
	if ve == nil || ve.Pointer != "/n" || len(ve.More) != 1 || ve.More[0].Pointer != "/s/minLength" {
		t.Fatalf("got %+v", ve)
	}
}

// TestSelfCheckNamesPointer: a file that breaks its draft's metaschema is
// refused at the place, in the library's words, with the fix.
func TestSelfCheckNamesPointer(t *testing.T) {
	for _, tc := range []struct{ schema, pointer, part string }{
		{`{"type":5}`, "/type", `value must be one of 'array', 'boolean'`},
		{`{"properties":{"a":{"required":"x"}}}`, "/properties/a/required", "got string, want array"},
		{`{"items":{"minLength":-1}}`, "/items/minLength", "minimum: got -1, want 0"},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","items":[true]}`, "/items/0", "got boolean, want object"},
		{`{"dependentRequired":{"a":["b","b"]}}`, "/dependentRequired/a", "items at 0 and 1 are equal"},
		{`{"patternProperties":{"(":{}}}`, "/patternProperties/(", "RE2"},
		{`{"pattern":"(?=x)"}`, "/pattern", "RE2"},
	} {
		_, err := CompileBytes("s.json", []byte(tc.schema))
		ce := mustCompileErr(t, err)
		if ce.File != "s.json" || ce.Pointer != tc.pointer || !strings.Contains(ce.Message, tc.part) || !strings.HasPrefix(ce.Message, "not a valid JSON Schema: ") {
			t.Errorf("%s: got %#v", tc.schema, ce)
		}
	}
}

// TestDuplicatesNamedInDocumentOrder: the library finds a duplicate id or
// anchor in map order; the report is the same every time.
func TestDuplicatesNamedInDocumentOrder(t *testing.T) {
	for _, tc := range []struct{ schema, pointer, part string }{
		{`{"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}}`, "/$defs/b", `duplicate anchor "x": already defined at /$defs/a`},
		{`{"$defs":{"a":{"$id":"http://x/y"},"b":{"$id":"http://x/y"}}}`, "/$defs/b", `duplicate id "http://x/y": it already names the schema at /$defs/a`},
	} {
		for range 10 {
			_, err := CompileBytes("d.json", []byte(tc.schema))
			if ce := mustCompileErr(t, err); ce.Pointer != tc.pointer || !strings.Contains(ce.Message, tc.part) {
				t.Fatalf("%s: got %#v", tc.schema, ce)
			}
		}
	}
}

// TestFirstBadPropertyRefIsStable: with several broken refs under
// "properties", the same one (the first by name) is reported every time,
// whatever the map order.
func TestFirstBadPropertyRefIsStable(t *testing.T) {
	raw := []byte(`{"properties":{"h":{"$ref":"#/no/h"},"c":{"$ref":"#/no/c"},"f":{"$ref":"#/no/f"},"a":{"$ref":"#/no/a"},
		"g":{"$ref":"#/no/g"},"b":{"$ref":"#/no/b"},"e":{"$ref":"#/no/e"},"d":{"$ref":"#/no/d"}}}`)
	dir := story(t, map[string]string{
		"schemas/p.json":    `{"properties":{"z":{"$ref":"gone1.json"},"y":{"$ref":"here.json#/nope"},"x":{"$ref":"gone2.json"}}}`,
		"schemas/here.json": `{}`,
	})
	for range 20 {
		_, err := CompileBytes("p.json", raw)
		if ce, ok := errors.AsType[*CompileError](err); !ok || ce.Pointer != "/properties/a/$ref" || ce.Ref != "#/no/a" {
			t.Fatalf("got %v", err)
		}
		_, err = NewCompiler(dir).Compile("schemas/p.json")
		if ce, ok := errors.AsType[*CompileError](err); !ok || ce.Pointer != "/properties/x/$ref" || !strings.Contains(ce.Message, "gone2.json does not exist") {
			t.Fatalf("got %v", err)
		}
	}
}
