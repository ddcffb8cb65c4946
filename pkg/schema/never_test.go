package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestNeverValid: a schema the library fails on every value because it
// is, or applies to every value, the schema false (or not: true) is
// refused at compile; one where false reads into the value, or sits in a
// branch another may satisfy, is kept. Each verdict is checked against
// the library itself.
func TestNeverValid(t *testing.T) {
	values := []any{nil, "s", 1.0, true, map[string]any{}, map[string]any{"x": 1.0}, []any{}, []any{1.0}}
	for src, refused := range map[string]bool{
		`false`:                  true,
		`{"not":true}`:           true,
		`{"allOf":[true,false]}`: true,
		`{"$defs":{"no":false},"$ref":"#/$defs/no"}`:                                  true,
		`{"type":"object","allOf":[{"$ref":"#/$defs/n"}],"$defs":{"n":{"not":true}}}`: true,
		`true`: false,
		`{"type":"object","additionalProperties":false}`: false, // the usual one: {} passes
		`{"properties":{"x":false}}`:                     false,
		`{"items":false}`:                                false, // [] passes
		`{"anyOf":[false,{"type":"string"}]}`:            false,
		`{"not":false}`:                                  false,
		`{"if":false,"then":false}`:                      false,
		`{"$defs":{"no":false}}`:                         false, // unused
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
		accepted := false
		for _, v := range values {
			accepted = accepted || lib.Validate(v) == nil
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
			if ce.File != "x.json" || !strings.Contains(ce.Message, "refuses every value") || !strings.Contains(ce.Message, "drop the schema") {
				t.Errorf("%s: got %#v", src, ce)
			}
		}
	}
}

// TestNeverValidInFile: a false reached through a $ref into another file
// names that file and the place.
func TestNeverValidInFile(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/v.json":      `{"type":"object","allOf":[{"$ref":"common.json#/$defs/none"}]}`,
		"schemas/common.json": `{"$defs":{"none":false}}`,
	})
	_, err := NewCompiler(dir).Compile("schemas/v.json")
	ce := mustCompileErr(t, err)
	if ce.File != "schemas/common.json" || ce.Pointer != "/$defs/none" || !strings.Contains(ce.Message, `"schemas/common.json#/$defs/none"`) || strings.Contains(ce.Message, dir) {
		t.Fatalf("got %#v", ce)
	}
}
