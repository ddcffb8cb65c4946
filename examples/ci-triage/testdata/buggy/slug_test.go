package buggy

import "testing"

func TestSlug(t *testing.T) {
	if got := Slug("Hello Big World"); got != "hello-big-world" {
		t.Errorf("Slug = %q, want %q", got, "hello-big-world")
	}
}
