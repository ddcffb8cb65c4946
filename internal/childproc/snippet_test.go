package childproc

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSnippetCutsOnARune: a long snippet keeps at most snippetBytes of
// whole characters (3-byte "日"s put the byte count inside one), marked
// "..."; a short one comes back as it is, redacted.
func TestSnippetCutsOnARune(t *testing.T) {
	got := Snippet(nil, strings.Repeat("日", snippetBytes))
	if body, ok := strings.CutSuffix(got, "..."); !ok || len(body) > snippetBytes || len(body) < snippetBytes-2 || !utf8.ValidString(body) {
		t.Errorf("a long snippet: %d bytes %q", len(got), got)
	}
	if got := Snippet(func(s string) string { return strings.ReplaceAll(s, "k", "*") }, "key"); got != "*ey" {
		t.Errorf("a short snippet: %q, want it redacted whole", got)
	}
}
