package host

import (
	"errors"
	"io"
	"sync/atomic"
)

// maxRunPrinted bounds how much output host.run reads from a command
// before it stops it: past it the command has printed far more than is
// kept (maxRunOutput) and is taken for one that never ends (`yes`), which
// upstream holds in memory until the machine kills it (docs/compat/hosts.md).
const maxRunPrinted = 1 << 30

// errPrintedBound is what a printedBound's Write fails with once the
// command printed more than its bound.
var errPrintedBound = errors.New("host.run: output bound passed")

// printedBound passes what a command prints on to w and counts it; the
// write that takes the count past max fails with errPrintedBound, which
// ends runCollect's copy and stops the command.
type printedBound struct {
	w       io.Writer
	max     int64
	printed atomic.Int64
}

func (b *printedBound) Write(p []byte) (int, error) {
	if b.printed.Add(int64(len(p))) > b.max {
		return 0, errPrintedBound
	}
	return b.w.Write(p)
}

// passed reports whether the command printed more than the bound.
func (b *printedBound) passed() bool { return b.printed.Load() > b.max }
