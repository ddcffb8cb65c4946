//go:build !unix && !windows

package proc

import (
	"os"
	"os/exec"
)

func prepare(*exec.Cmd) {}

func terminate(p *os.Process, _ int) error { return p.Kill() }

func kill(p *os.Process, _ int) error { return p.Kill() }
