//go:build unix && !linux

package sidecar

import "syscall"

// setParentDeathSignal: no parent-death signal outside Linux; Stop and the
// process group are the only guarantees there.
func setParentDeathSignal(*syscall.SysProcAttr) {}
