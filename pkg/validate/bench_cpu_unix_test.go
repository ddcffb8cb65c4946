//go:build unix

package validate

import "syscall"

// processCPU returns the user+system CPU time this process has used, in
// ns: on a shared machine wall-clock ns/op is inflated by other
// processes, CPU time shows the work validate itself does.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
