//go:build linux

package proc

import "syscall"

// setParentDeath makes the kernel send SIGKILL to the child when the
// thread that started it exits — with the Go runtime, when kitsoki dies
// (its threads live as long as the process).
func setParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
