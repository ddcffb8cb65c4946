package engine

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// The note of an agent call shows the start of its answer without
// encoding the whole answer (a 34 MiB answer was encoded to show 157
// bytes of it: some five times its size allocated).
func TestResultTextBigAnswer(t *testing.T) {
	big := map[string]any{"text": strings.Repeat("big answer <&> ", 8<<20/15)}
	var got string
	spent := allocs.During(func() { got = resultText("host.agent.ask", map[string]any{"submitted": big}) })
	want := ` → {"text":"big answer \u003c\u0026\u003e big answer ` // as json.Marshal writes it
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "...") || len(got) != len(" → ")+160 {
		t.Fatalf("got %q", got)
	}
	if spent > 64<<10 {
		t.Errorf("the note of an 8 MiB answer allocated %d bytes", spent)
	}
	if got := resultText("host.agent.ask", map[string]any{"submitted": map[string]any{"b": 1, "a": []any{"x", nil}}}); got != ` → {"a":["x",null],"b":1}` {
		t.Errorf("small answer: %q", got)
	}
}
