package safefile

import (
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	base := filepath.FromSlash("/p/story")
	for _, c := range []struct {
		p    string
		want bool
	}{
		{"/p/story", true},
		{"/p/story/a", true},
		{"/p/story/a/b.yaml", true},
		{"/p/story/..x", true},
		{"/p/story/../story2", false},
		{"/p/story2", false},
		{"/p", false},
		{"/q/story/a", false},
		{"story/a", false},
	} {
		if got := Within(base, filepath.FromSlash(c.p)); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", base, c.p, got, c.want)
		}
	}
}
