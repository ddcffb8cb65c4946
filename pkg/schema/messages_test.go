package schema

import (
	"strings"
	"testing"
)

// TestMessagesMatchLibrary: outside the cases below, where the engine says
// more (or the library leaked annotations), Error() is the text the
// library gave, so reports read as before.
//   - propertyNames leaves name the property; additional property names
//     are sorted; the dependencies keyword is named as written;
//   - a reference cycle and a $ref to a metaschema get the engine's words;
//   - "not" drops the annotations of its subschema (the library kept them);
//   - format detail after "is not valid <format>: " is the engine's.
func TestMessagesMatchLibrary(t *testing.T) {
	differ := []string{"propertyName", "additional properties", "dependencies:", "reference cycle", "schema: not a valid", "is not valid", "'not' failed"}
	compared := 0
	for _, s := range trickySchemas {
		mine, err := CompileBytes("d.json", []byte(s))
		lib, lerr := oracleCompile("d.json", []byte(s))
		if err != nil || lerr != nil {
			continue
		}
		for _, inst := range instancePool {
			v, _ := decodeJSON([]byte(inst))
			got, want := "", libraryError(lib.Validate(v))
			if ve := mine.Validate(v); ve != nil {
				got = ve.Error()
			}
			skip := false
			for _, d := range differ {
				skip = skip || strings.Contains(got, d)
			}
			if skip {
				continue
			}
			compared++
			if got != want {
				t.Errorf("%s | %s\n  engine:  %s\n  library: %s", s, inst, got, want)
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d messages compared", compared)
	}
}
