//go:build !linux

package atomicfile

import (
	"errors"
	"testing"
)

// makeUnwritable: only Linux's immutable attribute stops root here.
func makeUnwritable(*testing.T, string) error {
	return errors.New("no immutable attribute on this system")
}
