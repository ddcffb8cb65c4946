//go:build !unix

package validate

import (
	"os"
	"testing"
)

func processCPU() int64 { return 0 }

// usage is not measured here.
type usage struct{}

func (*usage) add(*os.ProcessState) {}

func (*usage) report(*testing.B) {}
