package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestRefCycle: a schema compiles here exactly when the library, given
// it alone, accepts some value: one refused is refused on every value
// (each fails "causing reference cycle" there), one kept accepts one.
func TestRefCycle(t *testing.T) {
	values := []any{nil, "s", 1.0, true, map[string]any{}, map[string]any{"x": 1.0}, []any{}}
	for src, refused := range map[string]bool{
		`{"$ref":"#"}`:                               true,
		`{"type":"object","$ref":"#"}`:               true,
		`{"allOf":[{"type":"object"},{"$ref":"#"}]}`: true,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`:                                true,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$ref":"#"}},"allOf":[{"$ref":"#/definitions/a"}]}`: true,
		`{"anyOf":[{"$ref":"#"},{"type":"string"}]}`:                                                                                  false, // the string branch matches
		`{"oneOf":[{"type":"string"},{"$ref":"#"}]}`:                                                                                  false,
		`{"not":{"$ref":"#"}}`:                         false, // swallowed
		`{"if":{"$ref":"#"}}`:                          false,
		`{"if":{"type":"string"},"then":{"$ref":"#"}}`: false, // only strings
		`{"properties":{"x":{"$ref":"#"}}}`:            false, // reads into the value
		`{"type":"array","items":{"$ref":"#"}}`:        false,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`: false, // only under x
	} {
		var doc any
		if err := json.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		jc := jsonschema.NewCompiler()
		if err := jc.AddResource("mem://x.json", doc); err != nil {
			t.Fatal(err)
		}
		lib, err := jc.Compile("mem://x.json")
		if err != nil {
			t.Fatalf("%s: the library compiles it: %v", src, err)
		}
		accepted, cycle := false, false
		for _, v := range values {
			err := lib.Validate(v)
			accepted = accepted || err == nil
			cycle = cycle || err != nil && strings.Contains(err.Error(), "reference cycle")
		}
		if refused && !cycle {
			t.Errorf("%s: the library never reports the cycle", src)
		}
		if accepted == refused {
			t.Errorf("%s: the library accepts some value: %v, want %v", src, accepted, !refused)
		}
		_, err = CompileBytes("x.json", []byte(src))
		if got := err != nil; got != refused {
			t.Errorf("%s: refused %v (%v), want %v", src, got, err, refused)
			continue
		}
		if refused {
			ce := mustCompileErr(t, err)
			if ce.File != "x.json" || !strings.Contains(ce.Message, "reference cycle") || !strings.Contains(ce.Message, "point the $ref") {
				t.Errorf("%s: got %#v", src, ce)
			}
		}
	}
}

// TestRefCycleInFile: a file's cycle names the file and the place.
func TestRefCycleInFile(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/v.json":      `{"type":"object","properties":{"k":{"$ref":"common.json"}},"allOf":[{"$ref":"common.json#/$defs/loop"}]}`,
		"schemas/common.json": `{"$defs":{"loop":{"$ref":"#/$defs/back"},"back":{"$ref":"#/$defs/loop"}}}`,
	})
	_, err := NewCompiler(dir).Compile("schemas/v.json")
	ce := mustCompileErr(t, err)
	if ce.File != "schemas/common.json" || ce.Pointer != "/$defs/loop" || strings.Contains(ce.Message, dir) {
		t.Fatalf("got %#v", ce)
	}
}
