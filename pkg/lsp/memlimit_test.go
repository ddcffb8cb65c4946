package lsp

import (
	"runtime/debug"
	"testing"
)

// kitsoki lsp runs under a soft memory limit derived from its caps (its
// RSS was about twice its live heap, which the caps bound, not the
// process), unless the user set GOMEMLIMIT. Read back from the runtime.
func TestSetMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	noEnv := func(string) string { return "" }

	if got, want := SetMemoryLimit(Options{}, noEnv), int64(312<<20); got != want || debug.SetMemoryLimit(-1) != want {
		t.Fatalf("default caps: limit %d (runtime %d), want %d", got, debug.SetMemoryLimit(-1), want)
	}
	big := Options{MaxOpenBytes: 1 << 30}
	if got, want := SetMemoryLimit(big, noEnv), int64(1<<30+modelHeapFactor*maxModelBytes)*3/2; got != want || debug.SetMemoryLimit(-1) != want {
		t.Fatalf("1 GiB of open buffers: limit %d (runtime %d), want %d", got, debug.SetMemoryLimit(-1), want)
	}

	const users = 777 << 20 // as GOMEMLIMIT=777MiB set it at start
	debug.SetMemoryLimit(users)
	env := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "777MiB"
		}
		return ""
	}
	if got := SetMemoryLimit(Options{}, env); got != users || debug.SetMemoryLimit(-1) != users {
		t.Fatalf("with GOMEMLIMIT set: limit %d (runtime %d), want the user's %d", got, debug.SetMemoryLimit(-1), int64(users))
	}
}
