package schema

import (
	"fmt"
	"strings"
	"testing"
)

// anyOfEmpties is a schema of n empty subschemas: n+2 JSON values (the
// document, its anyOf array and the n schemas; keys are not values).
func anyOfEmpties(n int, extra string) string {
	return `{` + extra + `"anyOf":[` + strings.TrimSuffix(strings.Repeat("{},", n), ",") + `]}`
}

// enumOf is a schema of n+2 JSON values the library compiles at once: an
// enum of n numbers.
func enumOf(n int) string {
	return `{"enum":[` + strings.TrimSuffix(strings.Repeat("1,", n), ",") + `]}`
}

// TestSchemaValuesBounded: a schema holding more than MaxSchemaValues JSON
// values, alone or with the files its $refs load, and a story check whose
// schemas hold more than MaxStorySchemaValues together, are compile errors
// naming the file, before the library compiles them (its queue makes
// compiling quadratic in the subschemas: before, an anyOf of 700,000 empty
// schemas, a 2 MB file, kept kitsoki validate busy for hours).
func TestSchemaValuesBounded(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/fits.json":  enumOf(MaxSchemaValues - 2),
		"schemas/big.json":   anyOfEmpties(MaxSchemaValues-1, ""),
		"schemas/half.json":  anyOfEmpties(MaxSchemaValues/2, ""),
		"schemas/twice.json": anyOfEmpties(MaxSchemaValues/2, `"$ref":"half.json",`),
	})
	c := NewCompiler(dir)
	if _, err := c.Compile("schemas/fits.json"); err != nil {
		t.Fatalf("a schema of %d values: %v", MaxSchemaValues, err)
	}
	for _, name := range []string{"schemas/big.json", "schemas/twice.json"} {
		_, err := c.Compile(name)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d JSON values", MaxSchemaValues)) {
			t.Errorf("%s: %v, want a refusal naming the bound", name, err)
		}
	}

	files := map[string]string{}
	per := MaxSchemaValues - 2
	n := MaxStorySchemaValues/(per+2) + 1
	for i := range n {
		files[fmt.Sprintf("schemas/s%d.json", i)] = enumOf(per - 2)
	}
	s := NewCompiler(story(t, files)).Session()
	defer s.Close()
	var last error
	for i := range n {
		_, last = s.Compile(fmt.Sprintf("schemas/s%d.json", i))
		if i < n-1 && last != nil {
			t.Fatalf("schema %d of %d: %v", i+1, n, last)
		}
	}
	if last == nil || !strings.Contains(last.Error(), fmt.Sprintf("more than %d JSON values together", MaxStorySchemaValues)) {
		t.Errorf("schema %d of %d values each in one session: %v, want the story's bound", n, per, last)
	}
}
