//go:build !unix

package engine

import "os/exec"

func setProcessGroup(c *exec.Cmd) {}
