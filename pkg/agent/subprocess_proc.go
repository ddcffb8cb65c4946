package agent

import (
	"os"
	"os/exec"

	"kitsoki/internal/proc"
)

// setProcessGroup applies kitsoki's child policy (internal/proc): its own
// process group, and on Linux death with kitsoki, so a deadline or Close
// can signal everything the plugin started and a killed kitsoki leaves no
// plugin behind.
func setProcessGroup(cmd *exec.Cmd) { proc.Prepare(cmd) }

// killGroup kills the plugin's whole process group (SIGKILL).
func killGroup(p *os.Process) error { return proc.Kill(p) }
