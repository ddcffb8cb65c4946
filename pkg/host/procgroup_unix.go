//go:build unix

package host

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in its own process group so that a
// cancelled or timed-out call stops the whole tree (bash -c children too).
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error {
		if c.Process == nil {
			return nil
		}
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		return c.Process.Kill()
	}
}
