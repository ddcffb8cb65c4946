package safefile

import "path/filepath"

// Within reports whether p is base itself or lies below it, lexically: both
// are absolute and clean, and no link is followed (a [Root] read is what
// confines a symlink).
func Within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && filepath.IsLocal(rel)
}
