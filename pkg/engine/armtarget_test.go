package engine

import "testing"

// An on_complete target that renders no string is dropped with a note
// naming what it rendered in the story's words, never a Go type ("a
// uint64", "a float64").
func TestValueWordStoryTerms(t *testing.T) {
	for v, want := range map[any]string{
		uint64(3): "a number (3)",
		int(-2):   "a number (-2)",
		1.5:       "a number (1.5)",
		true:      "true/false (true)",
		nil:       "null",
	} {
		if got := valueWord(v); got != want {
			t.Errorf("valueWord(%#v) = %q, want %q", v, got, want)
		}
	}
	if got := valueWord(map[string]any{"a": 1}); got != "an object" {
		t.Errorf("object: %q", got)
	}
	if got := valueWord([]any{1}); got != "a list" {
		t.Errorf("list: %q", got)
	}
}
