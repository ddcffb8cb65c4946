//go:build windows

package sidecar

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

// Windows has no SIGTERM: terminate and kill both end the process.
func terminate(pid int) error { return kill(pid) }

func kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	return p.Kill()
}
