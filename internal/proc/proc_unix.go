//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeath(cmd.SysProcAttr)
}

// terminate and kill signal the process group named group; the child
// (its member) is the other platforms' target.
func terminate(_ *os.Process, group int) error { return signalGroup(group, syscall.SIGTERM) }
func kill(_ *os.Process, group int) error      { return signalGroup(group, syscall.SIGKILL) }

func signalGroup(group int, sig syscall.Signal) error {
	err := syscall.Kill(-group, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil // the group is already gone
	}
	return err
}
