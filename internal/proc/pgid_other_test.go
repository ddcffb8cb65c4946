//go:build !unix

package proc

// pgidOf: no process groups here.
func pgidOf(int) int { return 0 }
