//go:build !unix

package story

import "testing"

func processCPU() int64 { return 0 }

func reportCPU(b *testing.B, start int64) {}
