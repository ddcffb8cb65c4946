//go:build !unix

package trace

// noFollow: the Lstat check before the open is all there is here.
const noFollow = 0
