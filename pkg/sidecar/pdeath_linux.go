//go:build linux

package sidecar

import "syscall"

// setParentDeathSignal makes the kernel kill the server when kitsoki dies,
// even by SIGKILL.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
