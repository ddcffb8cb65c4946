package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCostlyPatternIsNotMatched: a schema's pattern compiled to 2,400
// instructions against a 500,000-byte answer could take 1.2 billion steps
// that neither --timeout nor a context interrupts (an 8 KB answer in a
// cassette held kitsoki run --timeout 5s for almost three minutes). The
// match is not run: the value fails the pattern (one it would match), saying why, and a
// pattern a schema means still matches.
func TestCostlyPatternIsNotMatched(t *testing.T) {
	pattern := strings.Repeat("(?:x?){100}", 12) + "z$"
	raw, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"v":    map[string]any{"type": "string", "pattern": pattern},
		"word": map[string]any{"type": "string", "pattern": "^[a-z]+$"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := CompileBytes("s.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	// a value the pattern matches, had it been run
	doc, _ := json.Marshal(map[string]string{"v": strings.Repeat("x", 499_999) + "z", "word": strings.Repeat("a", 1<<20)})
	ve := s.ValidateJSON(doc)
	if ve == nil || len(ve.More) != 0 {
		t.Fatalf("want one failure, at /v: %v", ve)
	}
	if msg := ve.Error(); !strings.HasPrefix(msg, "/v: pattern: a string of 500000 bytes was not matched") || !strings.Contains(msg, "over the limit") || !strings.Contains(msg, "shorten the pattern") {
		t.Errorf("the failure does not say why: %.300s", msg)
	}
	if ve := s.ValidateJSON([]byte(`{"v": "xz", "word": "abc"}`)); ve != nil {
		t.Errorf("short values: %v", ve)
	}
}

// TestCostlyPatternIsNotCompiled: compiling is the cost of a pattern whose
// repeats multiply (a 141 KB schema of four patterns of 1,600
// `[\p{L}\p{N}]{1,1000}` ran kitsoki validate past 10 minutes at 1.7 GB).
// One past recost.MaxInsts, or the schema's patterns past their budget
// together, make the schema refused at once, naming the fix.
func TestCostlyPatternIsNotCompiled(t *testing.T) {
	for name, props := range map[string]map[string]any{
		"one pattern": {"v": map[string]any{"type": "string", "pattern": strings.Repeat(`[\p{L}\p{N}]{1,1000}`, 6)}},
		"together":    manyPatterns(30, strings.Repeat(`[\p{L}\p{N}]{1,1000}`, 2)),
	} {
		raw, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			t.Fatal(err)
		}
		_, err = CompileBytes("s.json", raw)
		if err == nil || !strings.Contains(err.Error(), "the pattern would compile to about") {
			t.Errorf("%s: %.300v; want the pattern refused", name, err)
		}
	}
	if _, err := CompileBytes("s.json", []byte(`{"type": "string", "pattern": "^.{0,1000}$"}`)); err != nil {
		t.Errorf("a pattern a schema means: %v", err)
	}
}

func manyPatterns(n int, pattern string) map[string]any {
	props := map[string]any{}
	for i := range n {
		props[fmt.Sprint("p", i)] = map[string]any{"type": "string", "pattern": pattern + fmt.Sprint(i)}
	}
	return props
}
