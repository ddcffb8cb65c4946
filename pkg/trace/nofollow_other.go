//go:build !unix

package trace

// noFollow: the Lstat check before the open is all there is here.
const noFollow = 0

// noBlock: the checks before and after the open are all there is here.
const noBlock = 0
