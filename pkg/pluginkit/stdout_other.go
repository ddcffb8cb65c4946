//go:build !unix

package pluginkit

import "os"

// protocolStdout keeps the protocol on stdout and points os.Stdout at
// stderr, so a stray print from Go code reaches kitsoki's log instead of
// breaking the stream (a write to the raw handle still goes to stdout).
func protocolStdout() *os.File {
	proto := os.Stdout
	os.Stdout = os.Stderr
	return proto
}
