//go:build !unix

package fetch

import "path/filepath"

// freeSpace is unknown here (-1): only the write error reports a full disk.
func freeSpace(string) (int64, error) { return -1, nil }

func dirOf(p string) string { return filepath.Dir(p) }
