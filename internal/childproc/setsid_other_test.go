//go:build !unix

package childproc

import "os/exec"

// setsid does nothing where there are no sessions.
func setsid(*exec.Cmd) {}
