package host

import (
	"os/exec"

	"kitsoki/internal/proc"
)

// setProcessGroup applies kitsoki's child-process policy (internal/proc):
// its own process group, so a cancelled or timed-out call stops the whole
// tree (bash -c children too), and on Linux death with kitsoki.
func setProcessGroup(c *exec.Cmd) {
	proc.Prepare(c)
	c.Cancel = func() error {
		if c.Process == nil {
			return nil
		}
		_ = proc.Kill(c.Process)
		return c.Process.Kill()
	}
}
