package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// doubling is a schema of levels $defs, each an anyOf of the next one
// twice: about 2 KB that makes a validator visit 2^levels subschemas for
// a value matching none of them.
func doubling(levels int, leaf string) []byte {
	defs := map[string]any{fmt.Sprintf("d%d", levels): json.RawMessage(leaf)}
	for i := range levels {
		next := fmt.Sprintf("#/$defs/d%d", i+1)
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"anyOf": []any{map[string]any{"$ref": next}, map[string]any{"$ref": next}}}
	}
	b, _ := json.Marshal(map[string]any{"$defs": defs, "$ref": "#/$defs/d0"})
	return b
}

func mustValue(t *testing.T, s string) any {
	t.Helper()
	v, err := decodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestValidationCostIsBounded: a value that would make the validator walk
// 2^40 subschemas (for ever, growing memory) is refused at once with the
// limit named; the same schema still validates a matching value and one
// that fails the cheap way.
func TestValidationCostIsBounded(t *testing.T) {
	s, err := CompileBytes("doubling.json", doubling(40, `{"type":"string"}`))
	if err != nil {
		t.Fatal(err)
	}
	ve := s.Validate(mustValue(t, `5`))
	if ve == nil || ve.Constraint != "cost" || !strings.Contains(ve.Message, fmt.Sprint(MaxValidationSteps)) {
		t.Fatalf("Validate(5) = %v, want the cost refusal naming %d", ve, MaxValidationSteps)
	}
	// The recursive form: each level of the value doubles the work.
	rec := `{"$defs":{"n":{"anyOf":[{"$ref":"#/$defs/o"},{"$ref":"#/$defs/o"}]},"o":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`
	s2, err := CompileBytes("rec.json", []byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{"a":`, 40) + `5` + strings.Repeat(`}`, 40)
	if ve := s2.Validate(mustValue(t, deep)); ve == nil || ve.Constraint != "cost" {
		t.Fatalf("Validate(40 levels) = %v, want the cost refusal", ve)
	}
	shallow := strings.Repeat(`{"a":`, 5) + `{}` + strings.Repeat(`}`, 5)
	if ve := s2.Validate(mustValue(t, shallow)); ve != nil {
		t.Errorf("Validate(5 levels) = %v, want valid", ve)
	}
	small, err := CompileBytes("small.json", doubling(4, `{"type":"string"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := small.Validate(mustValue(t, `"x"`)); ve != nil {
		t.Errorf("small: Validate(\"x\") = %v, want valid", ve)
	}
	if ve := small.Validate(mustValue(t, `5`)); ve == nil || ve.Constraint == "cost" {
		t.Errorf("small: Validate(5) = %v, want an ordinary failure", ve)
	}
}

// TestValidationCostOfALargeArray: a plain schema over a large value is
// not refused (the count follows the value, once per element).
func TestValidationCostOfALargeArray(t *testing.T) {
	s, err := CompileBytes("arr.json", []byte(`{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := "[" + strings.TrimSuffix(strings.Repeat(`{"a":1},`, 100_000), ",") + "]"
	if ve := s.Validate(mustValue(t, v)); ve != nil {
		t.Errorf("Validate(100,000 items) = %v, want valid", ve)
	}
}
