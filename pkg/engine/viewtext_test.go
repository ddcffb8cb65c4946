package engine

import "testing"

// The say prepend and the error banner renderView puts around a state's
// view (story-runtime §8, §2.4), as upstream writes them.
func TestViewSayAndBanner(t *testing.T) {
	for _, c := range []struct{ view, lastErr, msg, want string }{
		{"ROOM", "boom", "boom", "ROOM\n\n⚠ Action failed: boom"},
		{"", "boom", "boom", "⚠ Action failed: boom"},
		{"ROOM last_error=boom", "boom", "boom", "ROOM last_error=boom"},
		{"ERRROOM plain", "kaboom", "kaboom", "ERRROOM plain\n\n⚠ Action failed: kaboom"},
		{"ROOM", "", "boom", "ROOM\n\n⚠ Action failed: boom"},
	} {
		if got := errorBanner(c.view, c.lastErr, c.msg); got != c.want {
			t.Errorf("errorBanner(%q, %q, %q) = %q, want %q", c.view, c.lastErr, c.msg, got, c.want)
		}
	}
	for _, c := range []struct{ say, view, want string }{
		{"", "V", "V"},
		{"S", "", "S"},
		{"S", "V", "S\n\nV"},
		{"line one\nline two", "B", "line one\nline two\n\nB"},
	} {
		if got := prependSay(c.say, c.view); got != c.want {
			t.Errorf("prependSay(%q, %q) = %q, want %q", c.say, c.view, got, c.want)
		}
	}
}
