//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setsid starts cmd in a session (and process group) of its own.
func setsid(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
