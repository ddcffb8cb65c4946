//go:build !linux

package unwritable

import (
	"errors"
	"testing"
)

// immutable: only Linux's immutable attribute stops root here.
func immutable(testing.TB, string) error {
	return errors.New("no immutable attribute on this system")
}
