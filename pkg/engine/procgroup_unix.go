//go:build unix

package engine

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in its own process group so that a
// cancelled run stops the whole tree (sh -c children included).
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
