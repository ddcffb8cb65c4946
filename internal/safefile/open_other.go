//go:build !unix

package safefile

import "os"

const nonBlockFlag, noTTYFlag = 0, 0

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
