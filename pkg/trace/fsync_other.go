//go:build !linux

package trace

import "os"

func syncData(f *os.File) error { return f.Sync() }
