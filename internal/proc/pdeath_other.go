//go:build unix && !linux

package proc

import "syscall"

// setParentDeath: no parent-death signal outside Linux; the child's own
// process group lets a stop reach it and everything it started.
func setParentDeath(*syscall.SysProcAttr) {}
