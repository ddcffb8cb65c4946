//go:build unix

package sidecar

import (
	"errors"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the server in its own process group, so stopping it
// reaches every process it started.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the server's process group.
func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

func terminate(pid int) error { return signalGroup(pid, syscall.SIGTERM) }
func kill(pid int) error      { return signalGroup(pid, syscall.SIGKILL) }
