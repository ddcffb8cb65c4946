package engine

import "testing"

// The say prepend and the error banner renderView puts around a state's
// view (story-runtime §8, §2.4), as upstream writes them.
func TestViewSayAndBanner(t *testing.T) {
	// the banner names the world's last_error as the turn ends; an
	// empty one (a landing cleared it) shows no banner (upstream,
	// conformance host-banner-last-error)
	for _, c := range []struct{ view, lastErr, want string }{
		{"ROOM", "boom", "ROOM\n\n⚠ Action failed: boom"},
		{"", "boom", "⚠ Action failed: boom"},
		{"ROOM last_error=boom", "boom", "ROOM last_error=boom"},
		{"ERRROOM plain", "kaboom", "ERRROOM plain\n\n⚠ Action failed: kaboom"},
		{"ROOM", "", "ROOM"},
		{"", "", ""},
	} {
		if got := errorBanner(c.view, c.lastErr); got != c.want {
			t.Errorf("errorBanner(%q, %q) = %q, want %q", c.view, c.lastErr, got, c.want)
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
