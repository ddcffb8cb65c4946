//go:build !unix

package fetch

// freeSpace is unknown here (-1): only the write error reports a full disk.
func freeSpace(string) (int64, error) { return -1, nil }
