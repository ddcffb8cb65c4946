package lsp

import "runtime/debug"

// modelHeapFactor is the most heap a story model takes per byte of its
// story YAML (10 to 20 times: TestHeldHeapBoundedByTheCaps).
const modelHeapFactor = 20

// memoryLimit is the Go runtime's soft memory limit kitsoki lsp runs
// under: one and a half times what its caps let it keep, the open buffers
// (MaxOpenBytes) and the kept models (maxModelBytes of story YAML at up to
// modelHeapFactor times their bytes), 312 MiB by default. While the live
// heap is under two thirds of it the collector runs as without a limit
// (the heap grows to twice the live heap); past that it collects sooner,
// and returns freed memory to the system sooner, so the process stays near
// the limit instead of twice a big live heap. A live heap over the limit
// (one story far past the caps) makes checks slower, never fails them: the
// runtime gives the collector at most half the CPU.
func (o Options) memoryLimit() int64 {
	held := o.maxOpen() + modelHeapFactor*maxModelBytes
	return held + held/2
}

// SetMemoryLimit sets the runtime's soft memory limit to o.memoryLimit()
// unless getenv("GOMEMLIMIT") is set (the user's limit, or off, wins; the
// runtime has read it), and returns the limit in force. kitsoki lsp calls
// it once, before serving.
func SetMemoryLimit(o Options, getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	debug.SetMemoryLimit(o.memoryLimit())
	return o.memoryLimit()
}
