//go:build !unix

package fetch

// cacheOpenFlags: the Lstat check before the open is all there is here.
const cacheOpenFlags = 0
