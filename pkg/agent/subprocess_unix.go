//go:build unix

package agent

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the child the leader of a new process group, so a
// deadline or Close can signal everything the plugin started.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// terminateGroup asks the plugin's whole process group to stop (SIGTERM).
func terminateGroup(p *os.Process) error {
	return signalGroup(p, syscall.SIGTERM)
}

// killGroup kills the plugin's whole process group (SIGKILL).
func killGroup(p *os.Process) error {
	return signalGroup(p, syscall.SIGKILL)
}

func signalGroup(p *os.Process, sig syscall.Signal) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil // the group is already gone
	}
	return err
}
