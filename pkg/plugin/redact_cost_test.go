package plugin

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestRedactPatternPastTheBoundHaltsTheCall: a profile's redact pattern
// of 2,400 instructions against a 500,000-byte prompt could take 1.2
// billion steps that neither --timeout nor a context interrupts. The call
// is halted naming the pattern, the bound and the fix, not sent unmasked;
// a pattern a profile means masks as before.
func TestRedactPatternPastTheBoundHaltsTheCall(t *testing.T) {
	costly := regexp.MustCompile(strings.Repeat("(?:x?){100}", 12) + "z")
	h := newRedactHook(RedactConfig{Patterns: []*regexp.Regexp{regexp.MustCompile(`sk-[a-z]+`), costly}}, func(string) string { return "" })
	for name, p := range map[string]Payload{
		"prompt": {"prompt": strings.Repeat("x", 499_999) + "z"},
		"with":   {"prompt": "hi", "with": map[string]any{"a": []any{strings.Repeat("x", 499_999) + "z"}}},
	} {
		res, err := h.Hook(context.Background(), pointPreDispatch, p)
		if err != nil || res.Outcome != outcomeHalt || !strings.Contains(res.Reason, "config.redact.patterns") || !strings.Contains(res.Reason, "over the limit") {
			t.Errorf("%s: %+v %v; want the call halted", name, res, err)
		}
	}
	res, err := h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "key sk-abc and xz"})
	if err != nil || res.Outcome != outcomeContinue || res.Payload["prompt"] != "key [redacted] and [redacted]" {
		t.Errorf("short prompt: %+v %v", res, err)
	}
}
