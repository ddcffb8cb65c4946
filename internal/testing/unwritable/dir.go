package unwritable

import (
	"os"
	"testing"
)

// Dir makes dir a directory in which the test's user cannot create a
// file, until t ends: a read-only mode for a user, the immutable
// attribute for root. An error means this system cannot (root without
// Linux's attribute, or without CAP_LINUX_IMMUTABLE): the caller skips.
func Dir(t testing.TB, dir string) error {
	if os.Geteuid() == 0 {
		return immutable(t, dir)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		return err
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	return nil
}
