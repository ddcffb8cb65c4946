package schema

import (
	"encoding/json"
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
