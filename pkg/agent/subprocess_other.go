//go:build !unix

package agent

import (
	"os"
	"os/exec"
)

// setProcessGroup is a no-op where process groups do not exist; the
// transport then signals the plugin process itself.
func setProcessGroup(cmd *exec.Cmd) {}

// terminateGroup asks the plugin to stop. Where os.Interrupt cannot be
// delivered (Windows) it falls back to killing the process.
func terminateGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	if err := p.Signal(os.Interrupt); err != nil {
		return p.Kill()
	}
	return nil
}

// killGroup kills the plugin process.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}
