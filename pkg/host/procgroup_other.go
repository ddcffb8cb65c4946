//go:build !unix

package host

import "os/exec"

func setProcessGroup(c *exec.Cmd) {}
