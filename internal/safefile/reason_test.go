package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReason(t *testing.T) {
	dir := t.TempDir()
	_, missing := os.Open(filepath.Join(dir, "nope.yaml"))
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"missing file", missing, "no such file"},
		{"wrapped permission", fmt.Errorf("read: %w", &fs.PathError{Op: "open", Path: "/abs/x", Err: fs.ErrPermission}), "permission denied"},
		{"other path error", &fs.PathError{Op: "read", Path: "/abs/x", Err: errors.New("is a directory")}, "is a directory"},
		{"plain error", errors.New("too large"), "too large"},
	}
	for _, c := range cases {
		if got := Reason(c.err); got != c.want {
			t.Errorf("%s: Reason(%v) = %q, want %q", c.name, c.err, got, c.want)
		}
	}
}
